import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { TabProps } from '../App';
import { api, ApiError, keyInUse, message, ok, postForm, type Staged, type SyncSource } from '../api/client';
import { editBody, editDraft, FORMS, sourceReads, sourceTypeLabel, validateEdit, type Drafts, type EditDraft,
  type Snapshot, type SourceKind } from '../sources';
import { ago, duration, exactTime, formatBytes, plural } from '../format';
import { isTerminal, type Action, type State } from '../state';
import { useNow } from '../clock';
import { Field } from './Field';
import { TableWrap } from './TableWrap';

const GROUPS: { group: string; kinds: SourceKind[] }[] = [
  { group: 'Files', kinds: ['upload'] },
  { group: 'Server', kinds: ['folder'] },
  { group: 'Web', kinds: ['web'] },
  { group: 'Cloud', kinds: ['s3'] },
];

export function SourcesTab({ state, dispatch, config }: TabProps) {
  const kind = state.sourceKind;
  const form = FORMS[kind];
  const draft = state.drafts[kind];
  const errors = (form.validate as (d: Drafts[SourceKind]) => Partial<Record<string, string>>)(draft);
  const valid = Object.keys(errors).length === 0;
  // A field's error shows once it has a value (or, for uploads, once files were checked): a fresh form is not red.
  const shown = Object.fromEntries(Object.entries(errors).filter(([field]) => field === 'files'
    ? state.drafts.upload.staged !== null : String((draft as unknown as Record<string, unknown>)[field] ?? '') !== ''));
  // Tagged with this key: an upload check still running when the key changes must not land in the next tenant's form.
  const set = (patch: Partial<Drafts[SourceKind]>) => dispatch({ type: 'draft', kind, patch, asKey: state.apiKey });

  return (
    <>
      <SyncSources runs={state.runs} dispatch={dispatch} />
      <section aria-labelledby="sources-title" className="sources">
        <h2 id="sources-title">Add a source</h2>
        <p className="hint">Pick what to index. Each source is checked before anything is ingested; "Configure
          processing" takes a snapshot of the form, so what you change afterwards does not alter that run.</p>
        <div className="picker" role="radiogroup" aria-label="Source type">
          {GROUPS.map((g) => (
            <fieldset key={g.group} className="group">
              <legend>{g.group}</legend>
              {g.kinds.map((k) => (
                <label key={k} className={k === kind ? 'choice chosen' : 'choice'}>
                  <input type="radio" name="source-kind" value={k} checked={k === kind}
                    onChange={() => dispatch({ type: 'sourceKind', kind: k })} />
                  {FORMS[k].label}
                  {FORMS[k].canSync ? <span className="tag">can stay in sync</span> : null}
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <form className="card form" onSubmit={(e) => {
          e.preventDefault();
          if (!valid) return;
          const snapshot = (form.snapshot as (d: Drafts[SourceKind]) => ReturnType<typeof form.snapshot>)(draft);
          // The upload configured before, if this replaces it: its files the new one and the form do not hold go.
          dropConfigured(state.configured, new Set([...(snapshot.kind === 'upload' ? snapshot.files : []),
            ...(state.drafts.upload.staged?.accepted ?? [])].map((f) => f.id ?? '')));
          dispatch({ type: 'configure', snapshot });
        }}>
          <h3>{form.label}</h3>
          {kind === 'upload' && <UploadForm draft={state.drafts.upload} errors={shown}
            maxBytes={config?.max_request_bytes} held={new Set(state.configured?.kind === 'upload'
              ? state.configured.files.map((f) => f.id) : [])}
            set={(p) => dispatch({ type: 'draft', kind: 'upload', patch: p, asKey: state.apiKey })} />}
          {kind === 'folder' && <FolderForm draft={state.drafts.folder} errors={shown} set={set} />}
          {kind === 'web' && <WebForm draft={state.drafts.web} errors={shown} set={set} />}
          {kind === 's3' && <S3Form draft={state.drafts.s3} errors={shown} set={set} />}
          <div className="actions">
            <button type="submit" className="primary" disabled={!valid}>Configure processing</button>
            {!valid ? <span className="hint">Complete the form to go on.</span> : null}
          </div>
        </form>
      </section>
    </>
  );
}

/**
 * The tenant's sync sources (folders, web sites and buckets kept in sync): what each reads, where to, how often, its last
 * scan and error; paused or resumed, synced now, edited, deleted (with its documents, or leaving them). The list is
 * read again after each action, and whenever a job finishes (a sync changes the scan time and the item count).
 */
function SyncSources({ runs, dispatch }: { runs: State['runs']; dispatch: (a: Action) => void }) {
  const [sources, setSources] = useState<SyncSource[] | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState('');
  const [editing, setEditing] = useState('');
  const [confirming, setConfirming] = useState('');
  const [confirmingSync, setConfirmingSync] = useState('');
  const [withDocuments, setWithDocuments] = useState(false);
  const now = useNow(true, 30_000);
  const settled = runs.filter((r) => isTerminal(r.job?.status)).length;

  const load = useCallback(() => ok(api.GET('/v1/sync/sources')).then((r) => setSources(r.sources ?? []))
    .catch((e) => setError(message(e))), []);
  useEffect(() => { void load(); }, [load, settled]);

  /** Runs one action on a source: its job (if it started one) is shown on Processing; the list is read again. */
  const act = async <R extends object>(id: string, call: () => Promise<R>, done: (job: boolean, r: R) => string) => {
    setBusy(id);
    setError('');
    setNotice('');
    const asKey = keyInUse();
    try {
      const r = await call();
      const job = (r as { job_id?: string | null }).job_id ?? '';
      if (job) {
        dispatch({ type: 'track', run: { jobId: job, label: `sync of ${id}`, kind: 'job', job: null }, asKey });
        ok(api.GET('/v1/jobs/{id}', { params: { path: { id: job } } }))
          .then((j) => dispatch({ type: 'jobs', jobs: [j], asKey })).catch(() => {});
      }
      setNotice(done(!!job, r));
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    } finally {
      setBusy('');
      await load();
    }
  };
  const path = (id: string) => ({ params: { path: { id } } });
  const started = (job: boolean) => (job ? ': a sync started, see Processing' : '');

  return (
    <section aria-labelledby="sync-title" className="sync-sources">
      <div className="section-head">
        <h2 id="sync-title">Sync sources</h2>
        <button type="button" onClick={() => { setError(''); void load(); }}>Refresh</button>
      </div>
      {error ? <p role="alert" className="error">{error}</p> : null}
      <p role="status" className="notice">{notice}</p>
      {sources === null && !error ? <p className="hint">Loading…</p> : null}
      {sources && sources.length === 0 ? <p className="empty">No folders, web sites or buckets are kept in sync yet: add one
        below. (Uploaded files are indexed once and are not listed here.)</p> : null}
      {sources && sources.length > 0 ? (
        <TableWrap label="Sync sources">
          <table className="source-list">
            <caption className="sr-only">Sync sources</caption>
            <thead><tr><th scope="col">Source</th><th scope="col">Reads</th><th scope="col">Knowledge base</th>
              <th scope="col">Every</th><th scope="col">State</th><th scope="col">Last scan</th>
              <th scope="col">Items</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {sources.map((s) => {
                const id = s.source_id ?? '';
                return (
                  <SourceRows key={id} source={s} now={now} busy={busy === id}
                    editing={editing === id} confirming={confirming === id} withDocuments={withDocuments}
                    confirmingSync={confirmingSync === id}
                    onConfirmSync={() => setConfirmingSync(confirmingSync === id ? '' : id)}
                    onPause={() => void act(id, () => ok(api.POST(s.enabled ? '/v1/sync/sources/{id}/disable'
                      : '/v1/sync/sources/{id}/enable', path(id))), (job) => s.enabled ? `Paused ${id}.`
                      : `Resumed ${id}${started(job)}.`)}
                    onSync={() => void act(id, () => ok(api.POST('/v1/sync/sources/{id}/sync-now', path(id))),
                      (job) => `Syncing ${id} now${started(job)}.`)}
                    onSyncDeleting={() => void act(id, () => ok(api.POST('/v1/sync/sources/{id}/sync-now', {
                      params: { path: { id }, query: { max_delete_percent: 100 } } })).then((r) => {
                      setConfirmingSync('');
                      return r;
                    }), (job) => `Syncing ${id} now, deleting what it no longer lists${started(job)}.`)}
                    onEdit={() => { setEditing(editing === id ? '' : id); setConfirming(''); }}
                    onSave={async (draft) => {
                      if (await act(id, () => ok(api.PUT('/v1/sync/sources/{id}', { ...path(id),
                        body: editBody(s, draft) })), (job) => `Saved ${id}${started(job)}.`)) setEditing('');
                    }}
                    onConfirm={() => { setConfirming(confirming === id ? '' : id); setEditing('');
                      setWithDocuments(false); }}
                    onWithDocuments={setWithDocuments}
                    onDelete={() => void act(id, () => ok(api.DELETE('/v1/sync/sources/{id}', { params: {
                      path: { id }, query: withDocuments ? { documents: true } : {} } })).then((r) => {
                      setConfirming('');
                      return r;
                    }), (_, r) => withDocuments ? `Deleted ${id} and its ${plural(r.documents_deleted, 'document')}.`
                      : `Deleted ${id}; the documents it indexed stay searchable.`)} />
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </section>
  );
}

function SourceRows({ source: s, now, busy, editing, confirming, withDocuments, confirmingSync, onConfirmSync,
  onPause, onSync, onSyncDeleting, onEdit, onSave, onConfirm, onWithDocuments, onDelete }: { source: SyncSource;
  now: number; busy: boolean; editing: boolean; confirming: boolean; withDocuments: boolean; confirmingSync: boolean;
  onConfirmSync: () => void; onPause: () => void; onSync: () => void; onSyncDeleting: () => void; onEdit: () => void;
  onSave: (d: EditDraft) => Promise<void>; onConfirm: () => void; onWithDocuments: (on: boolean) => void;
  onDelete: () => void }) {
  const id = s.source_id ?? '';
  return (
    <>
      <tr data-source={id} data-enabled={s.enabled}>
        <th scope="row"><span className="source-id">{id}</span>
          <div className="muted">{sourceTypeLabel(s.type)}</div></th>
        <td className="mono reads">{sourceReads(s)}</td>
        <td>{s.knowledge_base}</td>
        <td className="every">{duration(s.interval_seconds)}</td>
        <td><span className={`pill ${s.enabled ? 'ok' : 'warn'}`}>{s.enabled ? 'active' : 'paused'}</span></td>
        <td className="scan">{s.last_scan_at ? <time dateTime={s.last_scan_at} title={exactTime(s.last_scan_at)}>
          {ago(s.last_scan_at, now)}</time> : <span className="muted">never</span>}
          {s.last_error ? <div className="error">{s.last_error}</div> : null}
          {s.enabled && s.last_error?.includes('max_delete_percent=100') ? (
            <button type="button" className="danger" disabled={busy} onClick={onConfirmSync}
              aria-expanded={confirmingSync} aria-label={`Sync ${id}, deleting what it no longer lists…`}>
              Sync, deleting them…</button>
          ) : null}</td>
        <td>{s.items}</td>
        <td><div className="row-actions">
          <button type="button" disabled={busy} onClick={onPause}
            aria-label={`${s.enabled ? 'Pause' : 'Resume'} ${id}`}>{s.enabled ? 'Pause' : 'Resume'}</button>
          <button type="button" disabled={busy} onClick={onSync} aria-label={`Sync ${id} now`}>Sync now</button>
          <button type="button" disabled={busy} onClick={onEdit} aria-expanded={editing} aria-label={`Edit ${id}`}>
            Edit</button>
          <button type="button" className="danger" disabled={busy} onClick={onConfirm} aria-expanded={confirming}
            aria-label={`Delete ${id}…`}>Delete…</button>
        </div></td>
      </tr>
      {editing ? <tr className="detail"><td colSpan={8}><SourceEdit source={s} busy={busy} onSave={onSave}
        onCancel={onEdit} /></td></tr> : null}
      {confirmingSync ? (
        <tr className="detail"><td colSpan={8}>
          <div className="confirm" role="group" aria-label={`Sync ${id}, deleting`}>
            <span>Sync {id} and delete, from every store, the documents of the items it no longer lists (its last
              error above says how many)?</span>
            <button type="button" className="danger" disabled={busy} onClick={onSyncDeleting}>
              Sync and delete them</button>
            <button type="button" onClick={onConfirmSync}>Keep them</button>
          </div>
        </td></tr>
      ) : null}
      {confirming ? (
        <tr className="detail"><td colSpan={8}>
          <div className="confirm" role="group" aria-label={`Delete ${id}`}>
            <span>Stop syncing {id}?</span>
            <label><input type="checkbox" checked={withDocuments}
              onChange={(e) => onWithDocuments(e.target.checked)} />
              Also delete the {plural(s.items, 'document')} it indexed, from every store</label>
            <button type="button" className="danger" disabled={busy} onClick={onDelete}>
              {withDocuments ? 'Delete with its documents' : 'Delete, keep its documents'}</button>
            <button type="button" onClick={onConfirm}>Keep</button>
          </div>
        </td></tr>
      ) : null}
    </>
  );
}

/** A source's settings, changed in place: its id, type and knowledge base stay. */
function SourceEdit({ source: s, busy, onSave, onCancel }: { source: SyncSource; busy: boolean;
  onSave: (d: EditDraft) => Promise<void>; onCancel: () => void }) {
  const [draft, setDraft] = useState(() => editDraft(s));
  const errors = validateEdit(s.type, draft);
  const set = (patch: Partial<EditDraft>) => setDraft({ ...draft, ...patch });
  const f = `edit-${s.source_id}`;
  return (
    <form className="edit-source" aria-label={`Edit ${s.source_id}`}
      onSubmit={(e) => { e.preventDefault(); if (Object.keys(errors).length === 0) void onSave(draft); }}>
      {s.type === 'web' ? (
        <>
          <Field id={`${f}-urls`} label="Start URLs" hint="one a line, all on one site" error={errors.startUrls}>
            <textarea id={`${f}-urls`} rows={2} value={draft.startUrls}
              onChange={(e) => set({ startUrls: e.target.value })} />
          </Field>
          <Field id={`${f}-prefix`} label="Path prefix" hint="empty: the whole host" error={errors.pathPrefix}>
            <input id={`${f}-prefix`} value={draft.pathPrefix} onChange={(e) => set({ pathPrefix: e.target.value })} />
          </Field>
          <div className="row">
            <Field id={`${f}-pages`} label="Page limit" error={errors.maxPages}>
              <input id={`${f}-pages`} inputMode="numeric" value={draft.maxPages}
                onChange={(e) => set({ maxPages: e.target.value })} />
            </Field>
            <Field id={`${f}-depth`} label="Link depth" error={errors.maxDepth}>
              <input id={`${f}-depth`} inputMode="numeric" value={draft.maxDepth}
                onChange={(e) => set({ maxDepth: e.target.value })} />
            </Field>
          </div>
        </>
      ) : s.type === 's3' ? (
        <>
          <Field id={`${f}-prefix`} label="Key prefix" hint="only objects below it; empty: the whole bucket"
            error={errors.prefix}>
            <input id={`${f}-prefix`} value={draft.prefix} onChange={(e) => set({ prefix: e.target.value })} />
          </Field>
          <div className="row">
            <GlobFields id={f} include={draft.include} exclude={draft.exclude} set={set} />
          </div>
          <Field id={`${f}-secret`} label="New secret access key" hint="empty: keep the stored one (never shown)">
            <input id={`${f}-secret`} type="password" autoComplete="off" value={draft.secretAccessKey}
              onChange={(e) => set({ secretAccessKey: e.target.value })} />
          </Field>
        </>
      ) : (
        <>
          <Field id={`${f}-root`} label="Folder on the server" error={errors.root}>
            <input id={`${f}-root`} value={draft.root} onChange={(e) => set({ root: e.target.value })} />
          </Field>
          <div className="row">
            <GlobFields id={f} include={draft.include} exclude={draft.exclude} set={set} />
          </div>
        </>
      )}
      <Field id={`${f}-interval`} label="Seconds between scans" hint={`at least 30 (now ${duration(
        s.interval_seconds)})`} error={errors.interval}>
        <input id={`${f}-interval`} inputMode="numeric" value={draft.interval}
          onChange={(e) => set({ interval: e.target.value })} />
      </Field>
      <label className="check"><input type="checkbox" checked={draft.enabled}
        onChange={(e) => set({ enabled: e.target.checked })} /> Keep in sync (unticked: paused)</label>
      <p className="hint">Knowledge base: <strong>{s.knowledge_base}</strong>. A source cannot move to another one:
        delete it and add it again.</p>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || Object.keys(errors).length > 0}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

interface FormProps<K extends SourceKind> {
  draft: Drafts[K];
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<Drafts[K]>) => void;
}

/** Most files the server takes in one upload request. */
const MAX_FILES_PER_REQUEST = 1000;

/**
 * The chosen files in requests the server takes: at most 1000 files, and a tenth under its request limit for the
 * multipart framing (a file larger than that goes alone, and is refused naming the limit).
 */
export function uploadBatches(files: File[], maxBytes?: number): File[][] {
  const budget = maxBytes ? maxBytes * 0.9 : Number.POSITIVE_INFINITY;
  const out: File[][] = [];
  let batch: File[] = [];
  let bytes = 0;
  for (const f of files) {
    if (batch.length && (batch.length >= MAX_FILES_PER_REQUEST || bytes + f.size > budget)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(f);
    bytes += f.size;
  }
  if (batch.length) out.push(batch);
  return out;
}

/** Bumped by every choice of files: a check that ends after a newer one started describes files no longer chosen. */
let uploadChoice = 0;

/**
 * Deletes the files a dropped verdict holds on the server: kept until ingested or expired (a day), they counted
 * against the tenant's stored_mb, and choosing the files again for another knowledge base was refused.
 */
function discard(staged: Staged | null, held: Set<string>) {
  for (const f of staged?.accepted ?? []) {
    // Not those a configured run will ingest: the live form edited after Configure keeps the snapshot's files.
    if (f.id && !held.has(f.id)) {
      void api.DELETE('/v1/ingest/staged/{id}', { params: { path: { id: f.id } } }).catch(() => {});
    }
  }
}

/**
 * Deletes the staged files of a configured upload that is being replaced or discarded, but for those the live form
 * still holds (`keep`): referenced nowhere any more, they waited for the expiry sweep, counted against the quota.
 */
export function dropConfigured(configured: Snapshot | null, keep: Set<string>) {
  if (configured?.kind !== 'upload') return;
  for (const f of configured.files) {
    if (f.id && !keep.has(f.id)) {
      void api.DELETE('/v1/ingest/staged/{id}', { params: { path: { id: f.id } } }).catch(() => {});
    }
  }
}

/** The most staged files one ingest request takes (the server's limit). */
const MAX_STAGED = 10_000;

/**
 * The choice of files being sent, kept outside the form: leaving the tab (or the upload form) unmounted it, and the
 * form drawn again showed no progress and no Cancel while the request went on.
 */
interface Sending {
  busy: boolean;
  /** Bytes sent of the choice's total; null before the first byte and once all are sent (the server checks them). */
  progress: { sent: number; total: number } | null;
  /** The request going up, and whether all its bytes went: one that has is let answer (see stopSending). */
  request: { controller: AbortController; sent: boolean } | null;
  error: string;
  canceled: boolean;
}

let sending: Sending = { busy: false, progress: null, request: null, error: '', canceled: false };
const sendingWatchers = new Set<() => void>();

function setSending(patch: Partial<Sending>) {
  sending = { ...sending, ...patch };
  sendingWatchers.forEach((w) => w());
}

function watchSending(w: () => void) {
  sendingWatchers.add(w);
  return () => {
    sendingWatchers.delete(w);
  };
}

/**
 * Stops the choice being sent: a request still sending is aborted (nothing staged); one whose bytes all went is let
 * answer, so what the server staged from it is known and deleted (aborted, it would be held a day).
 */
function stopSending() {
  ++uploadChoice;
  if (sending.request && !sending.request.sent) sending.request.controller.abort();
  setSending({ busy: false, progress: null, request: null });
}

/**
 * The API key changes: the last key's upload stops, and what it staged — the verdict shown, a configured upload's
 * files — is deleted with that key (under the next one the server knows none of them).
 */
export function stopUploadsOf(oldKey: string, staged: Staged | null, configured: Snapshot | null) {
  if (sending.busy) stopSending();
  const ids = [...(staged?.accepted ?? []).map((f) => f.id ?? ''),
    ...(configured?.kind === 'upload' ? configured.files.map((f) => f.id) : [])].filter(Boolean);
  for (const id of new Set(ids)) deleteStagedAs(id, oldKey);
}

/** DELETE of a staged file with a given key, whatever key is in use by then. */
function deleteStagedAs(id: string, key: string) {
  void fetch(`/v1/ingest/staged/${encodeURIComponent(id)}`, { method: 'DELETE',
    headers: key.trim() ? { Authorization: `Bearer ${key.trim()}` } : {} }).catch(() => {});
}

/** Refusals that the next request of the same choice would get too: the rest of the choice is not sent. */
const REFUSES_THE_REST = new Set([401, 403, 413, 429]);

function UploadForm({ draft, errors, set, maxBytes, held }: FormProps<'upload'> & { maxBytes?: number;
  held: Set<string> }) {
  const { busy, progress, error, canceled } = useSyncExternalStore(watchSending, () => sending);
  const input = useRef<HTMLInputElement>(null);
  const stage = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    discard(draft.staged, held);
    const mine = ++uploadChoice;
    const asKey = keyInUse();
    setSending({ busy: true, progress: null, error: '', canceled: false });
    // The earlier choice's verdict goes at once: "Configure processing" must not take those files meanwhile.
    set({ staged: null });
    const merged: Staged = { accepted: [], skipped: [] };
    const failed: string[] = [];
    // One run ingests at most MAX_STAGED files (the server refuses more ids in one request): past them a choice's
    // files are listed as not sent, not staged to be refused at Start, held and counted against the quota.
    const chosen = Array.from(files);
    merged.skipped!.push(...chosen.slice(MAX_STAGED).map((f) => ({ source: f.name, reason: `not sent: one upload `
      + `takes at most ${MAX_STAGED.toLocaleString('en')} files; upload these after this one starts` })));
    const batches = uploadBatches(chosen.slice(0, MAX_STAGED), maxBytes);
    const total = batches.flat().reduce((n, f) => n + f.size, 0);
    let before = 0;
    // Several requests when the choice is larger than one may be: each staged, their verdicts merged.
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b];
      const body = new FormData();
      for (const f of batch) body.append('files', f, f.name);
      if (draft.kb.trim()) body.append('kb', draft.kb.trim());
      const bytes = batch.reduce((n, f) => n + f.size, 0);
      const request = { controller: new AbortController(), sent: false };
      setSending({ request });
      try {
        // A large file takes minutes to send: how much went is shown, and Cancel stops it.
        const staged = await postForm<Staged>('/v1/ingest/upload', body, (sent, of) => {
          request.sent = sent >= of;
          if (mine === uploadChoice) {
            setSending({ progress: sent < of ? { sent: before + bytes * (sent / of), total } : null });
          }
        }, request.controller.signal);
        merged.accepted!.push(...(staged.accepted ?? []));
        merged.skipped!.push(...(staged.skipped ?? []));
      } catch (e) {
        if (request.controller.signal.aborted) {
          // Canceled: what earlier requests of this choice staged goes too (held, it counted against the quota).
          for (const f of merged.accepted ?? []) if (f.id && !held.has(f.id)) deleteStagedAs(f.id, asKey);
          return;
        }
        // Each file of a refused request is listed as skipped, with why: left out of the verdict, the rest
        // were configured and started with nothing saying which files never went.
        failed.push(message(e));
        // A 413 for one file over the request limit (sent alone, as uploadBatches does) leaves the rest to go; one
        // for the tenant's storage quota stops them.
        const stopped = e instanceof ApiError && REFUSES_THE_REST.has(e.status) && (e.status !== 413
          || /stored_mb|documents|quota/i.test(e.detail));
        // A key or a quota refused: the rest would be too, each after all its bytes went up.
        merged.skipped!.push(...(stopped ? batches.slice(b).flat() : batch).map((f) => ({ source: f.name,
          reason: `not sent: ${message(e)}` })));
        if (stopped) b = batches.length;
      } finally {
        if (sending.request === request) setSending({ request: null });
      }
      before += bytes;
      if (mine !== uploadChoice || keyInUse() !== asKey) {
        // Dropped while being checked (another choice, knowledge base or key): what was kept goes too, deleted
        // with the key it was staged under; nothing more is sent.
        for (const f of merged.accepted ?? []) if (f.id && !held.has(f.id)) deleteStagedAs(f.id, asKey);
        return;
      }
    }
    setSending({ busy: false, progress: null, error: failed.join('; ') });
    set({ staged: merged.accepted!.length || merged.skipped!.length ? merged : null });
    if (input.current) input.current.value = '';
  };
  const cancel = () => {
    stopSending();
    setSending({ canceled: true });
    if (input.current) input.current.value = '';
  };
  return (
    <>
      <Field id="upload-kb" label="Knowledge base" hint="empty: the default one" error={errors.kb}>
        <input id="upload-kb" value={draft.kb} placeholder="default" onChange={(e) => {
          // Files are checked for one knowledge base (what it already holds decides duplicates) and are ingested
          // into that one: another name drops the verdict, and the files are chosen again for it.
          stopSending();
          if (input.current) input.current.value = '';
          discard(draft.staged, held);
          set({ kb: e.target.value, staged: null });
        }} />
      </Field>
      <Field id="upload-files" label="Files" hint="PDF, Office, HTML, Markdown, text, code, images…"
        error={draft.staged ? undefined : errors.files}>
        <input id="upload-files" ref={input} type="file" multiple disabled={busy}
          onChange={(e) => void stage(e.target.files)} />
      </Field>
      {busy ? (
        <div className="sending">
          {/* Said once per phase: the bytes, redrawn many times a second, are not announced. */}
          <span role="status">{progress ? 'Sending files…' : 'Checking files…'}</span>
          {progress ? (
            <>
              {' '}<progress max={progress.total} value={progress.sent} aria-label="Sent" />{' '}
              <span className="muted">{formatBytes(progress.sent)} of {formatBytes(progress.total)}
                {' '}({Math.floor((100 * progress.sent) / Math.max(1, progress.total))}%)</span>
            </>
          ) : null}
          {' '}<button type="button" onClick={cancel}>Cancel upload</button>
        </div>
      ) : canceled ? <p role="status" className="muted">Upload canceled: nothing of it was kept.</p> : null}
      {error ? <p role="alert" className="error">{error}</p> : null}
      {draft.staged ? (
        <div className="verdict" aria-live="polite">
          <h4>Staging verdict</h4>
          <ul className="files">
            {(draft.staged.accepted ?? []).map((f) => (
              <li key={f.id} className="accepted"><span className="pill ok">accepted</span> {f.name}
                <span className="muted"> · {f.media_type} · {formatBytes(f.size)}</span></li>
            ))}
            {(draft.staged.skipped ?? []).map((f, i) => (
              <li key={`s${i}`} className="skipped"><span className="pill warn">skipped</span> {f.source}
                <span className="muted"> · {reasonOf(f.source, f.reason)}</span></li>
            ))}
          </ul>
          {errors.files ? <p className="error">{errors.files}</p> : null}
        </div>
      ) : null}
    </>
  );
}

function FolderForm({ draft, errors, set }: FormProps<'folder'>) {
  return (
    <>
      <Field id="folder-id" label="Source id" hint="your name for it, e.g. handbook" error={errors.sourceId}>
        <input id="folder-id" value={draft.sourceId} onChange={(e) => set({ sourceId: e.target.value })} />
      </Field>
      <Field id="folder-root" label="Folder on the server" hint="an absolute path inside the allowed sync roots"
        error={errors.root}>
        <input id="folder-root" value={draft.root} onChange={(e) => set({ root: e.target.value })}
          placeholder="/srv/docs" />
      </Field>
      <GlobFields id="folder" include={draft.include} exclude={draft.exclude} set={set} examples
        includeHint="one per line; empty: every supported file" excludeHint="one per line" />
      <Field id="folder-kb" label="Knowledge base" hint="empty: the default one" error={errors.kb}>
        <input id="folder-kb" value={draft.kb} onChange={(e) => set({ kb: e.target.value })} placeholder="default" />
      </Field>
      <Field id="folder-interval" label="Seconds between scans" hint="at least 30; changes also arrive live"
        error={errors.interval}>
        <input id="folder-interval" inputMode="numeric" value={draft.interval}
          onChange={(e) => set({ interval: e.target.value })} />
      </Field>
    </>
  );
}

function WebForm({ draft, errors, set }: FormProps<'web'>) {
  return (
    <>
      <Field id="web-id" label="Source id" hint="your name for it" error={errors.sourceId}>
        <input id="web-id" value={draft.sourceId} onChange={(e) => set({ sourceId: e.target.value })} />
      </Field>
      <Field id="web-url" label="Start URL" error={errors.startUrl}>
        <input id="web-url" type="url" value={draft.startUrl} onChange={(e) => set({ startUrl: e.target.value })}
          placeholder="https://docs.example.com/" />
      </Field>
      <Field id="web-prefix" label="Path prefix" hint="only pages below it; empty: the whole host"
        error={errors.pathPrefix}>
        <input id="web-prefix" value={draft.pathPrefix} onChange={(e) => set({ pathPrefix: e.target.value })}
          placeholder="/guide/" />
      </Field>
      <div className="row">
        <Field id="web-pages" label="Page limit" error={errors.maxPages}>
          <input id="web-pages" inputMode="numeric" value={draft.maxPages}
            onChange={(e) => set({ maxPages: e.target.value })} />
        </Field>
        <Field id="web-depth" label="Link depth" error={errors.maxDepth}>
          <input id="web-depth" inputMode="numeric" value={draft.maxDepth}
            onChange={(e) => set({ maxDepth: e.target.value })} />
        </Field>
      </div>
      <Field id="web-kb" label="Knowledge base" hint="empty: the default one" error={errors.kb}>
        <input id="web-kb" value={draft.kb} onChange={(e) => set({ kb: e.target.value })} placeholder="default" />
      </Field>
      <Field id="web-interval" label="Seconds between crawls" hint="at least 30" error={errors.interval}>
        <input id="web-interval" inputMode="numeric" value={draft.interval}
          onChange={(e) => set({ interval: e.target.value })} />
      </Field>
    </>
  );
}

function S3Form({ draft, errors, set }: FormProps<'s3'>) {
  return (
    <>
      <Field id="s3-id" label="Source id" hint="your name for it" error={errors.sourceId}>
        <input id="s3-id" value={draft.sourceId} onChange={(e) => set({ sourceId: e.target.value })} />
      </Field>
      <div className="row">
        <Field id="s3-bucket" label="Bucket" error={errors.bucket}>
          <input id="s3-bucket" value={draft.bucket} onChange={(e) => set({ bucket: e.target.value })}
            placeholder="team-docs" />
        </Field>
        <Field id="s3-prefix" label="Key prefix" hint="only objects below it; empty: the whole bucket"
          error={errors.prefix}>
          <input id="s3-prefix" value={draft.prefix} onChange={(e) => set({ prefix: e.target.value })}
            placeholder="handbook/" />
        </Field>
      </div>
      <div className="row">
        <Field id="s3-endpoint" label="Endpoint" hint="empty: AWS itself" error={errors.endpoint}>
          <input id="s3-endpoint" type="url" value={draft.endpoint} onChange={(e) => set({ endpoint: e.target.value })}
            placeholder="https://minio.example.com:9000" />
        </Field>
        <Field id="s3-region" label="Region" error={errors.region}>
          <input id="s3-region" value={draft.region} onChange={(e) => set({ region: e.target.value })} />
        </Field>
      </div>
      <div className="row">
        <Field id="s3-access" label="Access key id" hint="empty with the secret: a public bucket">
          <input id="s3-access" autoComplete="off" value={draft.accessKeyId}
            onChange={(e) => set({ accessKeyId: e.target.value })} />
        </Field>
        <Field id="s3-secret" label="Secret access key" hint="stored for this source, never shown again"
          error={errors.secretAccessKey}>
          <input id="s3-secret" type="password" autoComplete="off" value={draft.secretAccessKey}
            onChange={(e) => set({ secretAccessKey: e.target.value })} />
        </Field>
      </div>
      <GlobFields id="s3" include={draft.include} exclude={draft.exclude} set={set} examples
        includeHint="one per line, below the prefix; empty: every supported file" excludeHint="one per line" />
      <Field id="s3-kb" label="Knowledge base" hint="empty: the default one" error={errors.kb}>
        <input id="s3-kb" value={draft.kb} onChange={(e) => set({ kb: e.target.value })} placeholder="default" />
      </Field>
      <Field id="s3-interval" label="Seconds between scans" hint="at least 30" error={errors.interval}>
        <input id="s3-interval" inputMode="numeric" value={draft.interval}
          onChange={(e) => set({ interval: e.target.value })} />
      </Field>
    </>
  );
}

/** The server's reason without the file name it repeats ("a.txt: empty" → "empty"). */
/** The include and exclude globs of a folder or bucket source, one a line, as its forms ask for them. */
function GlobFields({ id, include, exclude, set, includeHint = 'one a line', excludeHint = 'one a line',
  examples = false }: {
  id: string; include: string; exclude: string; set: (p: { include?: string; exclude?: string }) => void;
  includeHint?: string; excludeHint?: string; examples?: boolean;
}) {
  return (
    <>
      <Field id={`${id}-include`} label="Include globs" hint={includeHint}>
        <textarea id={`${id}-include`} rows={2} value={include} onChange={(e) => set({ include: e.target.value })}
          placeholder={examples ? '**/*.md' : undefined} />
      </Field>
      <Field id={`${id}-exclude`} label="Exclude globs" hint={excludeHint}>
        <textarea id={`${id}-exclude`} rows={2} value={exclude} onChange={(e) => set({ exclude: e.target.value })}
          placeholder={examples ? '**/drafts/**' : undefined} />
      </Field>
    </>
  );
}

function reasonOf(name: string | null, reason: string | null): string {
  const r = reason ?? '';
  return name && r.startsWith(`${name}: `) ? r.slice(name.length + 2) : r;
}
