import type { TabProps } from '../App';
import { ApiError, api, message, ok, type Hit, type QueryBody, type SearchBody } from '../api/client';
import { highlight } from '../highlight';
import type { Controls } from '../state';
import { Field } from './Field';
import { KbPicker } from './KbPicker';
import { Figures, SourceCard } from './Chat';

/**
 * A control's number: null when blank (the server's default), a decimal comma read as a point, and anything else
 * refused naming the control — `Number('0,5')` is NaN, which JSON sends as null, so a typo quietly became the default.
 * A whole-number control reads "1,000" as a thousand (read as a decimal comma it was 1, one candidate per leg).
 */
export function num(value: string, label: string, whole = false): number | null {
  const t = value.trim();
  if (!t) return null;
  const v = whole && /^\d{1,3}(,\d{3})+$/.test(t) ? t.replaceAll(',', '') : t.replace(',', '.');
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${label}: '${t}' is not a number`);
  if (whole && !Number.isInteger(n)) throw new Error(`${label}: '${t}' is not a whole number`);
  return n;
}

/**
 * The controls as the API's own request fields (the generated types check each name). RRF k goes only with RRF and
 * the weights only with weighted fusion (`serverFusion`: the server's default, when none is chosen): their inputs
 * are greyed out otherwise, and a bad value left in one failed every search, naming a field that could not be edited.
 */
export function searchBody(query: string, c: Controls, serverFusion = 'rrf'): SearchBody {
  const fusion = c.fusion || serverFusion;
  const weights = fusion !== 'weighted' ? {} : Object.fromEntries(Object.entries(c.weights)
    .filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, num(v, `Weight of ${k}`) as number]));
  return {
    query,
    top_k: num(c.topK, 'Top-k', true),
    modalities: c.modalities.length ? c.modalities : null,
    fusion: c.fusion || null,
    rrf_k: fusion === 'rrf' ? num(c.rrfK, 'RRF k', true) : null,
    weights: Object.keys(weights).length ? weights : null,
    candidates: num(c.candidates, 'Candidates', true),
    fulltext_document_weight: num(c.documentWeight, 'Whole-document weight'),
    vector_document_weight: num(c.vectorDocumentWeight, 'Whole-document vector weight'),
    rerank: c.rerank,
    explain: c.explain,
    // None chosen: nothing sent, and the server searches all of yours.
    ...(c.kbs.length ? { kb: c.kbs } : {}),
  };
}

export function queryBody(query: string, c: Controls, serverFusion = 'rrf'): QueryBody {
  const { explain: _explain, ...rest } = searchBody(query, c, serverFusion);
  void _explain;
  return { ...rest, neighbours: num(c.neighbours, 'Neighbours', true) };
}

export function SearchTab({ state, dispatch, config }: TabProps) {
  const s = state.search;
  const c = s.controls;
  const enabled = config?.modalities ?? ['vector', 'fulltext'];
  const setControls = (patch: Partial<Controls>) => dispatch({ type: 'controls', patch });
  const hasReranker = !!config?.reranker && config.reranker !== 'none';
  const fusion = c.fusion || config?.fusion || 'rrf';

  const run = async () => {
    if (!s.query.trim()) return;
    const asKey = state.apiKey;
    dispatch({ type: 'search', patch: { busy: true, error: '' } });
    try {
      if (s.mode === 'search') {
        const results = await ok(api.POST('/v1/search', { body: searchBody(s.query, c, fusion) }));
        dispatch({ type: 'search', patch: { results, answer: null, busy: false }, asKey });
      } else {
        const answer = await ok(api.POST('/v1/query', { body: queryBody(s.query, c, fusion) }));
        dispatch({ type: 'search', patch: { answer, results: null, busy: false }, asKey });
      }
    } catch (e) {
      // Nothing of the last question stays under this one's error; a model's failure still shows what was found.
      const sources = e instanceof ApiError ? e.sources : [];
      dispatch({ type: 'search', patch: { error: message(e), busy: false, results: null, answer: sources.length
        ? { query: s.query, answer: '', mode: 'none', note: null, took_ms: 0, sources, degraded: null, warnings: null,
          grounding: null, rewritten_query: null, conversation_id: null, route: null } : null }, asKey });
    }
  };

  return (
    <section aria-labelledby="search-title" className="search">
      <h2 id="search-title" className="sr-only">Search</h2>
      <form className="querybar" role="search" onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <label htmlFor="search-query" className="sr-only">Query</label>
        <input id="search-query" type="search" value={s.query} placeholder="Search your documents…"
          onChange={(e) => dispatch({ type: 'search', patch: { query: e.target.value } })} />
        <div className="segmented" role="radiogroup" aria-label="Mode">
          {(['search', 'answer'] as const).map((m) => (
            <label key={m}><input type="radio" name="mode" checked={s.mode === m}
              onChange={() => dispatch({ type: 'search', patch: { mode: m } })} />{m === 'search' ? 'Fused hits'
                : 'Answer'}</label>
          ))}
        </div>
        <button type="submit" className="primary" disabled={s.busy || !s.query.trim()}>
          {s.busy ? 'Searching…' : s.mode === 'search' ? 'Search' : 'Ask'}</button>
      </form>
      <div className="layout">
        <aside className="controls card" aria-label="Retrieval controls">
          <KbPicker id="search-kbs" legend="Knowledge bases to search" selected={c.kbs}
            onChange={(kbs) => setControls({ kbs })} />
          <fieldset>
            <legend>Modalities</legend>
            {enabled.map((m) => (
              <label key={m}><input type="checkbox" checked={c.modalities.length === 0 || c.modalities.includes(m)}
                onChange={(e) => {
                  const current = c.modalities.length === 0 ? enabled : c.modalities;
                  const next = e.target.checked ? [...current, m] : current.filter((x) => x !== m);
                  setControls({ modalities: next.length === enabled.length ? [] : next });
                }} />{m}</label>
            ))}
          </fieldset>
          <Field id="ctl-fusion" label="Fusion">
            <select id="ctl-fusion" value={c.fusion}
              onChange={(e) => setControls({ fusion: e.target.value as Controls['fusion'] })}>
              <option value="">server default ({config?.fusion ?? 'rrf'})</option>
              <option value="rrf">RRF</option>
              <option value="weighted">weighted</option>
            </select>
          </Field>
          <Field id="ctl-rrfk" label="RRF k" hint={fusion === 'rrf' ? `default ${config?.rrf_k ?? 60}`
            : 'used by RRF only'}>
            <input id="ctl-rrfk" inputMode="numeric" value={c.rrfK} placeholder={String(config?.rrf_k ?? 60)}
              disabled={fusion !== 'rrf'}
              onChange={(e) => setControls({ rrfK: e.target.value })} />
          </Field>
          <fieldset disabled={fusion !== 'weighted'}>
            <legend>Weights{fusion !== 'weighted' ? <span className="hint"> (weighted fusion only)</span> : null}
            </legend>
            {enabled.map((m) => (
              <div key={m} className="weight">
                <label htmlFor={`w-${m}`}>{m}</label>
                <input id={`w-${m}`} inputMode="decimal" value={c.weights[m] ?? ''}
                  placeholder={String(config?.weights?.[m] ?? 1)}
                  onChange={(e) => setControls({ weights: { ...c.weights, [m]: e.target.value } })} />
              </div>
            ))}
          </fieldset>
          <Field id="ctl-candidates" label="Candidates per leg" hint="how deep each leg's list is (1-1000)">
            <input id="ctl-candidates" inputMode="numeric" value={c.candidates} placeholder="server default"
              onChange={(e) => setControls({ candidates: e.target.value })} />
          </Field>
          <Field id="ctl-docweight" label="Whole-document weight, full text" hint={enabled.includes('fulltext')
            ? '0 ranks passages alone, 1 whole documents alone' : 'full text is not enabled'}>
            <input id="ctl-docweight" inputMode="decimal" value={c.documentWeight} placeholder="server default"
              disabled={!enabled.includes('fulltext')}
              onChange={(e) => setControls({ documentWeight: e.target.value })} />
          </Field>
          <Field id="ctl-vecdocweight" label="Whole-document weight, vector" hint={enabled.includes('vector')
            ? 'for documents embedded whole too: 0 passages alone, 1 whole documents alone'
            : 'vector is not enabled'}>
            <input id="ctl-vecdocweight" inputMode="decimal" value={c.vectorDocumentWeight}
              placeholder="server default" disabled={!enabled.includes('vector')}
              onChange={(e) => setControls({ vectorDocumentWeight: e.target.value })} />
          </Field>
          <Field id="ctl-topk" label="Top-k">
            <input id="ctl-topk" inputMode="numeric" value={c.topK} placeholder="server default"
              onChange={(e) => setControls({ topK: e.target.value })} />
          </Field>
          <Field id="ctl-neighbours" label="Neighbours" hint="chunks around each source (answers)">
            <input id="ctl-neighbours" inputMode="numeric" value={c.neighbours} placeholder="server default"
              onChange={(e) => setControls({ neighbours: e.target.value })} />
          </Field>
          <label><input type="checkbox" checked={c.rerank ?? hasReranker} disabled={!hasReranker}
            onChange={(e) => setControls({ rerank: e.target.checked })} />
            Rerank {hasReranker ? `(${config?.reranker})` : '(no reranker configured)'}</label>
          <label><input type="checkbox" checked={c.explain}
            onChange={(e) => setControls({ explain: e.target.checked })} />Explain the fusion</label>
        </aside>
        <div className="results" aria-live="polite">
          {s.error ? <p role="alert" className="error">{s.error}</p> : null}
          {s.results ? <Results query={s.results.query ?? s.query} hits={s.results.hits ?? []} took={s.results.took_ms}
            fusion={s.results.fusion} degraded={s.results.degraded ?? []} warnings={s.results.warnings ?? []} /> : null}
          {s.answer ? (
            <div className="answer card">
              <h3>Answer <span className="muted">· {s.answer.mode} · {s.answer.took_ms} ms</span></h3>
              <p className="answer-text">{s.answer.answer}</p>
              {s.answer.note ? <p className="hint">{s.answer.note}</p> : null}
              {(s.answer.degraded ?? []).map((d, i) => <p key={`d${i}`} className="warn">the {d.modality} leg
                contributed nothing: {d.reason}</p>)}
              {(s.answer.warnings ?? []).map((w, i) => <p key={`w${i}`} className="warn">{w}</p>)}
              <ol className="sources">{(s.answer.sources ?? []).map((src) => <li key={src.number}>
                <SourceCard source={src} query={s.answer?.query ?? s.query} /></li>)}</ol>
            </div>
          ) : null}
          {!s.results && !s.answer && !s.error ? <p className="empty">Type a query: every enabled retriever
            runs in parallel, and their rankings are fused.</p> : null}
        </div>
      </div>
    </section>
  );
}

function Results({ query, hits, took, fusion, degraded, warnings }: { query: string; hits: Hit[]; took: number;
  fusion: string | null; degraded: { modality: string | null; reason: string | null }[]; warnings: string[] }) {
  return (
    <>
      <p className="muted">{hits.length} hit{hits.length === 1 ? '' : 's'} in {took} ms</p>
      {degraded.map((d, i) => <p key={i} className="warn">the {d.modality} leg contributed nothing: {d.reason}</p>)}
      {warnings.map((w, i) => <p key={`w${i}`} className="warn">{w}</p>)}
      {fusion ? <details className="explain"><summary>How these were fused</summary><p>{fusion}</p></details> : null}
      {hits.length === 0 ? <p className="empty">No hits. Try other words, or add documents.</p> : null}
      <ol className="hits">
        {hits.map((h) => (
          <li key={h.chunk_id} className="hit card">
            <div className="hit-head">
              <span className="rank">#{h.rank}</span>
              <strong>{h.title || h.uri}</strong>
              {h.location ? <span className="loc">{h.location}</span> : null}
              {h.heading_path?.length ? <span className="muted">{h.heading_path.join(' › ')}</span> : null}
              <span className="muted">{h.knowledge_base}</span>
              <span className="score" title="fused score">{h.score.toFixed(4)}</span>
            </div>
            <div className="modalities" role="group" aria-label="Per-modality ranks">
              {Object.entries(h.retrievers ?? {}).sort().map(([m, sc]) => (
                <span key={m} className={`chip m-${m}`}>{m} #{sc.rank} <span className="muted">
                  {sc.score.toFixed(3)}</span></span>
              ))}
            </div>
            <p className="text">{highlight(h.text ?? '', query)}</p>
            <Figures figures={h.figures ?? []} />
            {h.explain ? (
              <details className="explain"><summary>Explain</summary>
                <table><tbody>{Object.entries(h.explain.contributions ?? {}).sort().map(([m, v]) => (
                  <tr key={m}><th scope="row">{m}</th><td>{v.toFixed(5)}</td></tr>))}
                  <tr><th scope="row">fused</th><td>{h.explain.score.toFixed(5)}</td></tr></tbody></table>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}
