import { useState } from 'react';
import type { TabProps } from '../App';
import { api, message, ok, type Job } from '../api/client';
import { cancelJob } from '../jobs';
import { FORMS, type Snapshot } from '../sources';
import { isTerminal, jobWords, type FigureChoice, type Run } from '../state';
import { ago, duration, exactTime } from '../format';
import { useNow } from '../clock';
import { dropConfigured } from './Sources';
import { TableWrap } from './TableWrap';

export function ProcessingTab({ state, dispatch }: TabProps) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const snap = state.configured;
  const canSync = snap ? FORMS[snap.kind].canSync : false;
  // "started 2 min ago" and "running 12 s" stay true while a job is unfinished.
  const now = useNow(state.runs.some((r) => !isTerminal(r.job?.status)));

  const start = async () => {
    if (!snap) return;
    const asKey = state.apiKey;
    setBusy(true);
    setError('');
    try {
      const { jobId, label } = await startRun(snap, state.processing.skipGraph, canSync && state.processing.sync,
        state.processing.figures);
      dispatch({ type: 'runStarted', run: { jobId, label, kind: snap.kind, job: null }, asKey });
      ok(api.GET('/v1/jobs/{id}', { params: { path: { id: jobId } } }))
        .then((job) => dispatch({ type: 'jobs', jobs: [job], asKey })).catch(() => {});
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="processing-title">
      <h2 id="processing-title">Processing</h2>
      {snap ? (
        <div className="card configured">
          <h3>Configured: {describe(snap)}</h3>
          <p className="hint">A snapshot taken when you configured it; edits on the Sources tab do not change it.</p>
          <div className="toggles">
            <label><input type="checkbox" checked={state.processing.skipGraph}
              onChange={(e) => dispatch({ type: 'processing', patch: { skipGraph: e.target.checked } })} />
              Skip the graph (no entities and relations: faster)</label>
            {snap.kind === 'upload' ? (
              <label>Figures from PDFs and Office files{' '}
                <select value={state.processing.figures} onChange={(e) => dispatch({ type: 'processing',
                  patch: { figures: e.target.value as FigureChoice } })}>
                  <option value="">the server's default</option>
                  <option value="auto">images and captioned charts</option>
                  <option value="force">also every drawing</option>
                  <option value="skip">none</option>
                </select></label>
            ) : null}
            {canSync ? (
              <label><input type="checkbox" checked={state.processing.sync}
                onChange={(e) => dispatch({ type: 'processing', patch: { sync: e.target.checked } })} />
                Keep in sync (re-index changes, remove deletions)</label>
            ) : null}
          </div>
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={() => void start()}>Start</button>
            <button type="button" onClick={() => {
              // Its files go too, but for those the live form still shows (chosen there, not yet configured again).
              dropConfigured(state.configured, new Set((state.drafts.upload.staged?.accepted ?? [])
                .map((f) => f.id ?? '')));
              dispatch({ type: 'unconfigure' });
            }}>Discard</button>
          </div>
          {error ? <p role="alert" className="error">{error}</p> : null}
        </div>
      ) : null}
      {state.runs.length === 0 && !snap ? (
        <div className="empty">
          <p>Nothing is processing. Add your first source to see it here.</p>
          <button type="button" className="primary" onClick={() => dispatch({ type: 'tab', tab: 'sources' })}>
            Add a source</button>
        </div>
      ) : null}
      {state.runs.length > 0 ? (
        <TableWrap label="Jobs">
          <table className="runs">
            <caption className="sr-only">Jobs, newest first</caption>
            <thead><tr><th scope="col">Item</th><th scope="col">Status</th><th scope="col">Stage</th>
              <th scope="col">Progress</th><th scope="col">Time</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr></thead>
            <tbody>{state.runs.map((r) => <RunRow key={r.jobId} run={r} now={now}
              onJob={(job) => dispatch({ type: 'jobs', jobs: [job], asKey: state.apiKey })} />)}</tbody>
          </table>
        </TableWrap>
      ) : null}
    </section>
  );
}

function RunRow({ run, now, onJob }: { run: Run; now: number; onJob: (j: Job) => void }) {
  const [error, setError] = useState('');
  const job = run.job;
  const p = job?.progress;
  const pct = job?.percentage ?? 0;
  const status = job?.status ?? 'queued';
  return (
    <tr data-status={status}>
      <td><span className="item">{run.label}</span>
        {job ? <Subject job={job} label={run.label} now={now} /> : null}
        {p && (p.errors?.length ?? 0) > 0 ? <details><summary>{p.errors!.length} failed</summary>
          <ul>{p.errors!.map((e, i) => <li key={i}>{e.source}: {e.reason}</li>)}</ul></details> : null}
        {job?.error ? <span className="error"> {job.error}</span> : null}
        {error ? <span className="error"> {error}</span> : null}
      </td>
      <td><span className={`pill ${pillOf(status)}`}>{status}</span></td>
      <td>{p?.stage ?? '—'}{p && p.total > 0 ? <span className="muted"> · {p.processed}/{p.total}</span> : null}
        {p && isTerminal(status) ? <div className="muted">{counts(p)}</div> : null}</td>
      <td><progress max={100} value={pct} aria-label={`${run.label}: ${pct}%`} /> <span>{pct}%</span></td>
      <td className="time">{job ? <Timing job={job} now={now} /> : '—'}</td>
      <td>{!isTerminal(status) ? (
        <button type="button" onClick={() => cancelJob(run.jobId).then(onJob).catch((e) => setError(message(e)))}>
          Cancel</button>) : null}</td>
    </tr>
  );
}

/**
 * What a job is, under its label: "sync of handbook into docs · started 2 min ago" (the exact time on hover); a
 * tuning is "of" its knowledge base.
 */
function Subject({ job, label, now }: { job: Job; label: string; now: number }) {
  const words = jobWords(job);
  const what = [words !== label ? words : '', job.knowledge_base
    ? `${job.kind === 'tune' ? 'of' : 'into'} ${job.knowledge_base}` : '']
    .filter(Boolean).join(' ');
  const at = job.started_at ?? job.created_at;
  const when = ago(at, now);
  return (
    <div className="muted subject">
      {what}{what && when ? ' · ' : ''}
      {when ? <time dateTime={at ?? undefined} title={exactTime(at)}>{job.started_at ? 'started' : 'queued'}{' '}
        {when}</time> : null}
    </div>
  );
}

/**
 * How long: for a running job the time left once the server can estimate it (after the first item), else how long
 * it has run; for a queued one how long it has waited; for a finished one how long it took.
 */
function Timing({ job, now }: { job: Job; now: number }) {
  const since = (iso: string | null, until = now) => {
    const t = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(t) ? null : Math.max(0, (until - t) / 1000);
  };
  const status = job.status ?? 'queued';
  if (isTerminal(status)) {
    const end = job.updated_at ? Date.parse(job.updated_at) : NaN;
    const took = Number.isNaN(end) ? null : since(job.started_at ?? job.created_at, end);
    return <>{took != null ? `took ${duration(took)}` : '—'}</>;
  }
  const running = since(job.started_at ?? (status === 'running' ? job.created_at : null));
  if (status === 'running' || job.started_at) {
    if (job.eta_seconds != null) {
      return <><span title="estimated from the pace so far">about {formatEta(job.eta_seconds)} left</span>
        {running != null ? <div className="muted">running {duration(running)}</div> : null}</>;
    }
    return <>{running != null ? `running ${duration(running)}` : 'running'}</>;
  }
  const waited = since(job.created_at);
  return <>{waited != null ? `waiting ${duration(waited)}` : 'waiting'}</>;
}

/** What a finished job did, in words: "2 added · 1 deleted". */
function counts(p: NonNullable<Job['progress']>): string {
  const parts = [[p.added, 'added'], [p.updated, 'updated'], [p.unchanged, 'unchanged'], [p.deleted, 'deleted'],
    [p.failed, 'failed']].filter(([n]) => (n as number) > 0).map(([n, w]) => `${n} ${w}`);
  return parts.length ? parts.join(' · ') : 'nothing to do';
}

function pillOf(status: string) {
  return status === 'succeeded' ? 'ok' : status === 'failed' ? 'bad' : status === 'partial' || status === 'canceled'
    ? 'warn' : 'info';
}

export function formatEta(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${Math.round(seconds / 60)} min`
    : `${(seconds / 3600).toFixed(1)} h`;
}

function describe(s: Snapshot): string {
  switch (s.kind) {
    case 'upload':
      return `${s.files.length} uploaded file${s.files.length === 1 ? '' : 's'} → ${s.kb || 'default'}`;
    case 'folder':
      return `folder ${s.root} as "${s.sourceId}" → ${s.kb || 'default'}`;
    case 'web':
      return `web site ${s.startUrl} as "${s.sourceId}" → ${s.kb || 'default'}`;
    case 's3':
      return `bucket s3://${s.bucket}/${s.prefix} as "${s.sourceId}" → ${s.kb || 'default'}`;
  }
}

/** Starts what a snapshot describes; returns its job. */
async function startRun(s: Snapshot, skipGraph: boolean, sync: boolean, figures: FigureChoice):
  Promise<{ jobId: string; label: string }> {
  if (s.kind === 'upload') {
    const r = await ok(api.POST('/v1/ingest/staged', { body: { ids: s.files.map((f) => f.id),
      kb: s.kb || null, skip_graph: skipGraph, figures: figures || null } }));
    return { jobId: r.job_id ?? '', label: s.files.length === 1 ? s.files[0].name : `${s.files.length} files` };
  }
  const config: Record<string, unknown> = s.kind === 'folder'
    ? { root: s.root, include: s.include, exclude: s.exclude, skip_graph: skipGraph }
    : s.kind === 's3'
      ? { bucket: s.bucket, prefix: s.prefix, endpoint: s.endpoint || undefined, region: s.region,
        access_key_id: s.accessKeyId || undefined, secret_access_key: s.secretAccessKey || undefined,
        include: s.include, exclude: s.exclude, skip_graph: skipGraph }
      : { start_urls: [s.startUrl], path_prefix: s.pathPrefix || undefined, max_pages: s.maxPages,
        max_depth: s.maxDepth, skip_graph: skipGraph };
  const type = s.kind === 'folder' ? 'filesystem' : s.kind;
  const r = await ok(api.POST('/v1/sync/sources', { body: { source_id: s.sourceId, type, config, kb: s.kb || null,
    interval_seconds: s.interval, enabled: sync } }));
  return { jobId: r.job_id ?? '', label: s.kind === 'folder' ? `${s.sourceId} (${s.root})` : s.sourceId };
}
