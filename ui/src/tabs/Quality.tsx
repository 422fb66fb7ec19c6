import { useCallback, useEffect, useRef, useState } from 'react';
import { api, done, keyInUse, message, ok, unlessMissing, type FusionTuning, type KbEvaluation,
  type KbEvaluationRun } from '../api/client';
import { isTerminal, type Action, type Run } from '../state';
import { ago, exactTime } from '../format';
import { Field } from './Field';
import { TableWrap } from './TableWrap';

/** Judged queries a tuning needs (the server refuses fewer, with a 400 that says so). */
export const MIN_JUDGED = 20;

/** "1 judged query", "25 judged queries". */
export const judged = (n: number) => `${n} judged quer${n === 1 ? 'y' : 'ies'}`;

/** A mean in [0, 1], to three places; "—" when absent. */
export const metric = (x: number | null | undefined) => (x == null || Number.isNaN(x) ? '—' : x.toFixed(3));

/** A difference with its sign: "+0.034", "−0.012", "±0.000". */
export function signed(x: number): string {
  const s = Math.abs(x).toFixed(3);
  return Number(s) === 0 ? `±${s}` : `${x > 0 ? '+' : '−'}${s}`;
}

/** "p = 0.042", "p < 0.001". */
export const pValue = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);

/** One row of the runs table, in words: nDCG@10 with its 95% interval, and the run against the configured one. */
export function runCells(run: KbEvaluationRun) {
  const ci = run.ndcg10_ci95;
  const vs = run.vs_configured;
  return {
    name: run.name ?? '',
    ndcg10: ci && ci.length === 2 ? `${metric(run.ndcg10)} [${metric(ci[0])}–${metric(ci[1])}]` : metric(run.ndcg10),
    recall100: metric(run.recall100),
    mrr10: metric(run.mrr10),
    vs: vs ? `${signed(vs.delta)} (${pValue(vs.p)})` : '—',
    /** 'better' or 'worse' than the configured search at p < 0.05; '' otherwise. */
    significant: vs && vs.p < 0.05 && vs.delta !== 0 ? (vs.delta > 0 ? 'better' : 'worse') : '',
  };
}

/** Why Tune cannot run now, in words; '' when it can. */
export function tuneBlocked(queries: number | null): string {
  if (queries == null) return 'Counting the judged queries…';
  return queries < MIN_JUDGED ? `Tuning needs at least ${MIN_JUDGED} judged queries; this knowledge base has `
    + `${queries}.` : '';
}

/** How Processing lists a tuning started here. */
export const tuneLabel = (kb: string) => `fusion tuning of ${kb}`;

/**
 * A tuned fusion in words: "weighted: fulltext 0.7 · vector 0.3", "rrf, k = 30", "configured · whole-document
 * weight 1" (the full-text leg's blend of passage and document; "vector whole-document weight" the vector leg's),
 * "configured · 200 candidates per leg".
 */
export function fusionWords(t: Pick<FusionTuning, 'fusion' | 'weights' | 'rrf_k'>
  & Partial<Pick<FusionTuning, 'candidate_depth' | 'fulltext_document_weight' | 'vector_document_weight'>>): string {
  let words = t.fusion ?? 'configured';
  if (t.fusion === 'weighted') {
    const w = Object.entries(t.weights ?? {}).map(([leg, v]) => `${leg} ${Number(v.toFixed(3))}`).join(' · ');
    words = w ? `weighted: ${w}` : 'weighted';
  } else if (t.fusion === 'rrf') {
    words = t.rrf_k != null ? `rrf, k = ${t.rrf_k}` : 'rrf';
  }
  if (t.fulltext_document_weight != null) words += ` · whole-document weight ${t.fulltext_document_weight}`;
  if (t.vector_document_weight != null) words += ` · vector whole-document weight ${t.vector_document_weight}`;
  if (t.candidate_depth != null) words += ` · ${t.candidate_depth} candidates per leg`;
  return words;
}

/**
 * A knowledge base's search quality on its own judged queries: how many there are, its last evaluation (run again
 * with Evaluate), its fusion tuning (Tune: a job, followed like any other), and adding or clearing judged queries.
 * Keyed by the knowledge base, so nothing of one shows under another.
 */
export function Quality({ kb, runs, dispatch }: { kb: string; runs: Run[]; dispatch: (a: Action) => void }) {
  const [queries, setQueries] = useState<number | null>(null);
  // undefined: not known yet; null: never evaluated (a 404).
  const [evaluation, setEvaluation] = useState<KbEvaluation | null | undefined>(undefined);
  const [tuning, setTuning] = useState<FusionTuning | null>(null);
  const [evaluating, setEvaluating] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  // A tuning of this knowledge base started here and still running when the tab was left is followed on.
  // After a reload the runs are rebuilt from the jobs list, labelled by kind: found by kind and knowledge base too.
  const [tuneJob, setTuneJob] = useState(() => runs.find((r) => (r.label === tuneLabel(kb)
    || r.job?.kind === 'tune' && r.job?.knowledge_base === kb) && !isTerminal(r.job?.status))?.jobId ?? '');
  const path = { path: { name: kb } };

  const loadTuning = useCallback(() => unlessMissing(ok(api.GET('/v1/knowledge-bases/{name}/tuning',
    { params: { path: { name: kb } } }))).then(setTuning).catch((e) => setError(message(e))), [kb]);

  const load = useCallback(() => {
    ok(api.GET('/v1/knowledge-bases/{name}/judgments', { params: { path: { name: kb } } })).then((j) => {
      setQueries(j.queries);
      // Without judged queries there is nothing to evaluate or tune: not asked, so no 404 to show in the console.
      if (j.queries === 0) {
        setEvaluation((e) => e ?? null);
        return;
      }
      unlessMissing(ok(api.GET('/v1/knowledge-bases/{name}/evaluation', { params: { path: { name: kb },
        query: { last: true } } }))).then(setEvaluation).catch((e) => setError(message(e)));
      void loadTuning();
    }).catch((e) => setError(message(e)));
  }, [kb, loadTuning]);
  useEffect(load, [load]);

  const tuneRun = runs.find((r) => r.jobId === tuneJob);
  const tuneStatus = tuneRun?.job?.status;
  const tuneError = tuneRun?.job?.error;
  useEffect(() => {
    if (!tuneJob || !isTerminal(tuneStatus)) return;
    setTuneJob('');
    if (tuneStatus === 'succeeded') void loadTuning();
    else setError(`Tuning ${tuneStatus}${tuneError ? `: ${tuneError}` : ''}`);
  }, [tuneJob, tuneStatus, tuneError, loadTuning]);

  const act = async (what: () => Promise<void>) => {
    setError('');
    setNotice('');
    try {
      await what();
    } catch (e) {
      setError(message(e));
    }
  };
  const evaluate = () => act(async () => {
    setEvaluating(true);
    try {
      setEvaluation(await ok(api.GET('/v1/knowledge-bases/{name}/evaluation', { params: path })));
    } finally {
      setEvaluating(false);
    }
  });
  const tune = () => act(async () => {
    const asKey = keyInUse();
    const r = await ok(api.POST('/v1/knowledge-bases/{name}/tune', { params: path }));
    const id = r.job_id ?? '';
    dispatch({ type: 'track', run: { jobId: id, label: tuneLabel(kb), kind: 'job', job: null }, asKey });
    setTuneJob(id);
    // Its state now, in case it ended before the event stream told of it.
    ok(api.GET('/v1/jobs/{id}', { params: { path: { id } } }))
      .then((job) => dispatch({ type: 'jobs', jobs: [job], asKey })).catch(() => {});
  });
  const backToConfigured = () => act(async () => {
    await done(api.DELETE('/v1/knowledge-bases/{name}/tuning', { params: path }));
    setTuning(null);
    setNotice(`${kb} searches with the configured fusion again.`);
  });
  const clear = () => act(async () => {
    const r = await ok(api.DELETE('/v1/knowledge-bases/{name}/judgments', { params: path }));
    setConfirming(false);
    setQueries(r.queries);
    setNotice(`Deleted ${judged(r.deleted)}.`);
  });

  const blocked = tuneBlocked(queries);
  const n = queries ?? 0;
  return (
    <section className="card quality" aria-labelledby="quality-title">
      <div className="section-head">
        <h3 id="quality-title">Quality of {kb}</h3>
        <span className="muted">{queries == null ? 'Counting judged queries…' : judged(queries)}</span>
      </div>
      <div className="actions">
        <button type="button" className="primary" disabled={evaluating || n === 0} aria-busy={evaluating}
          title={n === 0 ? 'Add judged queries first' : undefined} onClick={() => void evaluate()}>
          {evaluating ? 'Evaluating…' : 'Evaluate'}</button>
        <button type="button" disabled={!!blocked || !!tuneJob} title={blocked || undefined}
          aria-describedby={blocked ? 'tune-hint' : undefined} onClick={() => void tune()}>
          {tuneJob ? 'Tuning…' : 'Tune'}</button>
        {n > 0 && !confirming ? <button type="button" onClick={() => setConfirming(true)}>Clear judgments…</button>
          : null}
      </div>
      {blocked && queries != null ? <p className="hint" id="tune-hint">{blocked}</p> : null}
      {confirming ? (
        <span className="confirm">Delete the {judged(n)} of {kb}?
          <button type="button" className="danger" onClick={() => void clear()}>Clear</button>
          <button type="button" onClick={() => setConfirming(false)}>Keep</button>
        </span>
      ) : null}
      {error ? <p role="alert" className="error">{error}</p> : null}
      <p role="status" className="notice">{evaluating ? `Evaluating ${judged(n)}…` : tuneJob
        ? `Tuning: ${tuneStatus ?? 'queued'}${tuneRun?.job?.percentage ? ` ${tuneRun.job.percentage}%` : ''}`
        : notice}</p>
      {evaluation === null ? <p className="muted">Not evaluated yet{n === 0 ? ': add judged queries first' : ''}.</p>
        : null}
      {evaluation ? <Evaluation evaluation={evaluation} /> : null}
      {tuning ? <Tuning tuning={tuning} onConfigured={() => void backToConfigured()} /> : null}
      <AddJudgments kb={kb} onAdded={(r) => {
        setError('');
        setNotice(`Added ${judged(r.added)}; ${judged(r.queries)} in all.`);
        // The first ones: a last evaluation or a tuning kept from before a clear shows again.
        if (n === 0) load();
        else setQueries(r.queries);
      }} />
    </section>
  );
}

function Evaluation({ evaluation }: { evaluation: KbEvaluation }) {
  const at = evaluation.evaluated_at;
  return (
    <>
      <p className="muted">Last evaluated{' '}
        {at ? <time dateTime={at} title={exactTime(at)}>{ago(at)}</time> : null} on {judged(evaluation.queries)}
        {' '}over {evaluation.documents} documents.</p>
      <TableWrap label="Evaluation runs">
        <table className="eval-runs">
          <thead><tr><th scope="col">Run</th><th scope="col">nDCG@10 [95% CI]</th><th scope="col">Recall@100</th>
            <th scope="col">MRR@10</th><th scope="col">vs configured</th></tr></thead>
          <tbody>
            {(evaluation.runs ?? []).map((run) => {
              const c = runCells(run);
              return (
                <tr key={c.name}>
                  <th scope="row" title={run.description ?? undefined}>{c.name}</th>
                  <td>{c.ndcg10}</td><td>{c.recall100}</td><td>{c.mrr10}</td>
                  <td>{c.significant ? <span className={`pill ${c.significant === 'better' ? 'ok' : 'bad'}`}
                    title={`${c.significant} than configured at p < 0.05`}>{c.vs}</span> : c.vs}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function Tuning({ tuning: t, onConfigured }: { tuning: FusionTuning; onConfigured: () => void }) {
  return (
    <div className="tuning">
      <h4>Fusion tuning <span className={`pill ${t.applied ? 'ok' : 'info'}`}>{t.applied ? 'applied'
        : 'kept configured'}</span></h4>
      {t.reason ? <p>{t.reason}</p> : null}
      <p className="muted">{t.applied ? 'In use' : 'Best found'}: {fusionWords(t)} · nDCG@10{' '}
        {metric(t.ndcg10_configured)} → {metric(t.ndcg10_tuned)} ({signed(t.delta)}, {pValue(t.p)}) held out over
        {' '}{judged(t.queries)} in {t.folds} folds
        {t.tuned_at ? <> · tuned <time dateTime={t.tuned_at} title={exactTime(t.tuned_at)}>{ago(t.tuned_at)}</time></>
          : null}</p>
      {t.applied ? <button type="button" onClick={onConfigured}>Use configured fusion</button> : null}
    </div>
  );
}

type Changed = { added: number; queries: number };

/** BEIR files (qrels and queries) uploaded as one multipart request; the server's problem detail when refused. */
function AddJudgments({ kb, onAdded }: { kb: string; onAdded: (r: Changed) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [files, setFiles] = useState<{ qrels?: File; queries?: File }>({});
  const form = useRef<HTMLFormElement>(null);
  const upload = async () => {
    if (!files.qrels || !files.queries) return;
    setBusy(true);
    setError('');
    const body = new FormData();
    body.append('qrels', files.qrels, files.qrels.name);
    body.append('queries', files.queries, files.queries.name);
    try {
      const r = await ok(api.POST('/v1/knowledge-bases/{name}/judgments', { params: { path: { name: kb } },
        body: body as never, bodySerializer: (b: unknown) => b as FormData }));
      onAdded(r);
      setFiles({});
      form.current?.reset();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="add-judgments">
      <summary>Add judgments</summary>
      <form ref={form} onSubmit={(e) => { e.preventDefault(); void upload(); }}>
        <p className="hint">BEIR files: a query is replaced when judged again. Documents are named by id or by their
          URI in {kb}.</p>
        <Field id="judgments-qrels" label="qrels" hint="tab-separated query-id, corpus-id, score (.tsv)">
          <input id="judgments-qrels" type="file" accept=".tsv,.txt,text/tab-separated-values" disabled={busy}
            onChange={(e) => setFiles((f) => ({ ...f, qrels: e.target.files?.[0] }))} />
        </Field>
        <Field id="judgments-queries" label="queries" hint={'JSON lines with "_id" and "text" (.jsonl)'}>
          <input id="judgments-queries" type="file" accept=".jsonl,.json,application/jsonl" disabled={busy}
            onChange={(e) => setFiles((f) => ({ ...f, queries: e.target.files?.[0] }))} />
        </Field>
        <button type="submit" disabled={busy || !files.qrels || !files.queries}>
          {busy ? 'Adding…' : 'Add judgments'}</button>
        {error ? <p role="alert" className="error">{error}</p> : null}
      </form>
    </details>
  );
}
