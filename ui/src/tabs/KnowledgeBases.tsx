import { useCallback, useEffect, useRef, useState } from 'react';
import type { TabProps } from '../App';
import { api, ApiError, done, downloadOriginal, message, ok, type DocumentDetail, type DocumentRow,
  type KnowledgeBase } from '../api/client';
import { Field } from './Field';
import { TableWrap } from './TableWrap';
import { Quality } from './Quality';
import { formatBytes, plural } from '../format';

export function KnowledgeBasesTab({ state, dispatch }: TabProps) {
  const [kbs, setKbs] = useState<KnowledgeBase[] | null>(null);
  const [error, setError] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [confirming, setConfirming] = useState('');
  // A knowledge base whose delete was refused because sync sources feed it: offer to delete them too.
  const [fed, setFed] = useState('');
  const selected = state.kb.selected;

  const load = useCallback(() => {
    ok(api.GET('/v1/knowledge-bases')).then((r) => { setKbs(r.knowledge_bases ?? []); setError(''); })
      .catch((e) => setError(message(e)));
  }, []);
  useEffect(load, [load]);

  const create = async () => {
    try {
      await ok(api.POST('/v1/knowledge-bases', { body: { name: name.trim(), description: description.trim() || null } }));
      setName('');
      setDescription('');
      load();
    } catch (e) {
      setError(message(e));
    }
  };
  const remove = async (kb: string, force = false) => {
    try {
      // 204, no body: done, not ok (which wants data).
      await done(api.DELETE('/v1/knowledge-bases/{name}', { params: { path: { name: kb },
        query: force ? { force: true } : {} } }));
      setConfirming('');
      setFed('');
      setError('');
      if (selected === kb) dispatch({ type: 'kb', selected: '' });
      load();
    } catch (e) {
      setFed(e instanceof ApiError && e.status === 409 && e.detail.includes('force=true') ? kb : '');
      setError(message(e));
    }
  };

  return (
    <section aria-labelledby="kbs-title" className="kbs">
      <h2 id="kbs-title">Knowledge bases</h2>
      {error ? <p role="alert" className="error">{error}</p> : null}
      <div className="kb-layout">
        <div>
          {kbs && kbs.length === 0 ? (
            <div className="empty"><p>No knowledge bases yet. Add your first source: it creates one.</p>
              <button type="button" className="primary" onClick={() => dispatch({ type: 'tab', tab: 'sources' })}>
                Add a source</button></div>
          ) : null}
          <ul className="kb-list">
            {(kbs ?? []).map((kb) => (
              <li key={kb.name} className={kb.name === selected ? 'card selected' : 'card'}>
                <button type="button" className="link kb-name" aria-pressed={kb.name === selected}
                  onClick={() => dispatch({ type: 'kb', selected: kb.name ?? '' })}>{kb.name}</button>
                <span className="muted"> {plural(kb.documents, 'document')} · {plural(kb.chunks, 'chunk')}</span>
                {kb.description ? <p className="muted">{kb.description}</p> : null}
                {confirming === kb.name ? (
                  <span className="confirm">Delete {kb.name} and its {kb.documents} documents from every store?
                    <button type="button" className="danger" onClick={() => void remove(kb.name ?? '')}>Delete</button>
                    <button type="button" onClick={() => { setConfirming(''); setFed(''); }}>Keep</button>
                    {fed === kb.name ? <button type="button" className="danger"
                      onClick={() => void remove(kb.name ?? '', true)}>Delete with its sync sources</button> : null}
                  </span>
                ) : <button type="button" onClick={() => setConfirming(kb.name ?? '')}>Delete…</button>}
              </li>
            ))}
          </ul>
          <form className="card form" onSubmit={(e) => { e.preventDefault(); void create(); }}>
            <h3>New knowledge base</h3>
            <Field id="kb-name" label="Name" hint="1-64 of a-z, 0-9, ., _ and -">
              <input id="kb-name" value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field id="kb-description" label="Description">
              <input id="kb-description" value={description} onChange={(e) => setDescription(e.target.value)} />
            </Field>
            <button type="submit" disabled={!name.trim()}>Create</button>
          </form>
        </div>
        {selected ? (
          <div className="kb-detail">
            {/* One key each: siblings sharing a key left the last knowledge base's Quality panel, and its Tune
                button, on screen after a switch. */}
            <Quality key={`quality:${selected}`} kb={selected} runs={state.runs} dispatch={dispatch} />
            <Documents key={`documents:${selected}`} kb={selected} onChanged={load} />
          </div>
        ) : <p className="empty">Pick a knowledge base to see its documents.</p>}
      </div>
    </section>
  );
}

const DOCUMENTS_PAGE = 200;

function Documents({ kb, onChanged }: { kb: string; onChanged: () => void }) {
  const [docs, setDocs] = useState<DocumentRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [open, setOpen] = useState('');
  const [detail, setDetail] = useState<DocumentDetail | null>(null);
  const [error, setError] = useState('');
  const shown = useRef(kb);
  shown.current = kb;
  const load = useCallback(() => {
    ok(api.GET('/v1/documents', { params: { query: { kb, status: 'all', limit: DOCUMENTS_PAGE } } }))
      .then((r) => {
        if (shown.current === kb) {
          setDocs(r.documents ?? []);
          setTotal(r.total ?? 0);
        }
      })
      .catch((e) => setError(message(e)));
  }, [kb]);
  // The next page after the rows shown: a knowledge base of more documents than a page says so and lets them in.
  const more = () => {
    ok(api.GET('/v1/documents', { params: { query: { kb, status: 'all', limit: DOCUMENTS_PAGE,
      offset: docs?.length ?? 0 } } }))
      .then((r) => {
        if (shown.current !== kb) return;
        setDocs((d) => [...(d ?? []), ...(r.documents ?? []).filter((x) => !(d ?? []).some((y) => y.id === x.id))]);
        setTotal(r.total ?? 0);
      })
      .catch((e) => setError(message(e)));
  };
  useEffect(load, [load]);
  useEffect(() => {
    if (!open) return;
    let current = true;
    setDetail(null);
    // An answer for a document no longer open is dropped, so its stores never show under another.
    ok(api.GET('/v1/documents/{id}', { params: { path: { id: open } } })).then((d) => { if (current) setDetail(d); })
      .catch((e) => { if (current) setError(message(e)); });
    return () => { current = false; };
  }, [open]);

  const remove = async (id: string) => {
    try {
      // 204, no body: `done`, not `ok` (which took the empty answer for a failure and kept the row).
      await done(api.DELETE('/v1/documents/{id}', { params: { path: { id } } }));
      load();
      onChanged();
    } catch (e) {
      setError(message(e));
    }
  };

  return (
    <div className="documents">
      <h3>Documents in {kb}</h3>
      {error ? <p role="alert" className="error">{error}</p> : null}
      {docs && docs.length === 0 ? <p className="empty">No documents in {kb} yet.</p> : null}
      {docs && docs.length > 0 ? (
        <TableWrap label="Documents">
        <table>
          <thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Chunks</th>
            <th scope="col">Size</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {docs.map((d) => (
              <DocRow key={d.id} d={d} open={open === d.id} detail={open === d.id ? detail : null}
                toggle={() => setOpen(open === d.id ? '' : d.id ?? '')} remove={() => void remove(d.id ?? '')}
                onError={setError} />
            ))}
          </tbody>
        </table>
        </TableWrap>
      ) : null}
      {docs && total > docs.length ? (
        <p className="more">Showing {docs.length} of {total} documents.{' '}
          <button type="button" onClick={more}>Show more</button></p>
      ) : null}
    </div>
  );
}

function DocRow({ d, open, detail, toggle, remove, onError }: { d: DocumentRow; open: boolean;
  detail: DocumentDetail | null; toggle: () => void; remove: () => void; onError: (e: string) => void }) {
  const name = d.title || d.uri?.split('/').pop() || d.id || 'document';
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <tr>
        <td><button type="button" className="link" aria-expanded={open} onClick={toggle}>{name}</button></td>
        <td><span className={`pill ${d.status === 'indexed' ? 'ok' : 'info'}`}>{d.status}</span></td>
        <td>{d.chunks}</td>
        <td>{formatBytes(d.size_bytes)}</td>
        <td className="row-actions">
          {/* Only uploads, synced web pages and bucket objects keep an original; for any other the route answers 404. */}
          {d.original ? <button type="button" aria-label={`Download ${name}`}
            onClick={() => downloadOriginal(d.id ?? '', name).catch((e) => onError(message(e)))}>Download</button>
            : null}
          {/* Asked first, as a knowledge base, a source or judgments are: it goes from every store, original too. */}
          {confirming ? (
            <span className="confirm">Delete from every store?{' '}
              <button type="button" className="danger" aria-label={`Yes, delete ${name}`}
                onClick={() => { setConfirming(false); remove(); }}>Delete</button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>Keep</button>
            </span>
          ) : <button type="button" className="danger" onClick={() => setConfirming(true)}
            aria-label={`Delete ${name}`}>Delete…</button>}
        </td>
      </tr>
      {open ? (
        <tr className="detail"><td colSpan={5}>
          {detail ? (
            <dl className="stores">
              {Object.entries(detail.stores ?? {}).map(([store, st]) => (
                <div key={store}><dt>{store}</dt><dd><span className={`pill ${st.state === 'complete' ? 'ok' : 'warn'}`}>
                  {st.state}</span> {st.held}/{st.expected}</dd></div>
              ))}
              <div><dt>media type</dt><dd>{d.media_type}</dd></div>
              <div><dt>version</dt><dd>{d.version}</dd></div>
              <div><dt>uri</dt><dd className="mono">{d.uri}</dd></div>
              {d.original ? null : <div><dt>original</dt><dd>not kept: indexed from text, a path or a folder — only
                uploads, web pages and bucket objects keep theirs</dd></div>}
            </dl>
          ) : <p role="status">Loading…</p>}
        </td></tr>
      ) : null}
    </>
  );
}
