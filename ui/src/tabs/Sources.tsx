import { useRef, useState } from 'react';
import type { TabProps } from '../App';
import { api, message, ok, type Staged } from '../api/client';
import { FORMS, type Drafts, type SourceKind } from '../sources';
import { formatBytes } from '../format';
import { Field } from './Field';

const GROUPS: { group: string; kinds: SourceKind[] }[] = [
  { group: 'Files', kinds: ['upload'] },
  { group: 'Server', kinds: ['folder'] },
  { group: 'Web', kinds: ['web'] },
];

export function SourcesTab({ state, dispatch }: TabProps) {
  const kind = state.sourceKind;
  const form = FORMS[kind];
  const draft = state.drafts[kind];
  const errors = (form.validate as (d: Drafts[SourceKind]) => Partial<Record<string, string>>)(draft);
  const valid = Object.keys(errors).length === 0;
  // A field's error shows once it has a value (or, for uploads, once files were checked): a fresh form is not red.
  const shown = Object.fromEntries(Object.entries(errors).filter(([field]) => field === 'files'
    ? state.drafts.upload.staged !== null : String((draft as unknown as Record<string, unknown>)[field] ?? '') !== ''));
  const set = (patch: Partial<Drafts[SourceKind]>) => dispatch({ type: 'draft', kind, patch });

  return (
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
        if (valid) dispatch({ type: 'configure', snapshot: (form.snapshot as (d: Drafts[SourceKind]) =>
          ReturnType<typeof form.snapshot>)(draft) });
      }}>
        <h3>{form.label}</h3>
        {kind === 'upload' && <UploadForm draft={state.drafts.upload} errors={shown}
          set={(p) => dispatch({ type: 'draft', kind: 'upload', patch: p })} />}
        {kind === 'folder' && <FolderForm draft={state.drafts.folder} errors={shown} set={set} />}
        {kind === 'web' && <WebForm draft={state.drafts.web} errors={shown} set={set} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={!valid}>Configure processing</button>
          {!valid ? <span className="hint">Complete the form to go on.</span> : null}
        </div>
      </form>
    </section>
  );
}

interface FormProps<K extends SourceKind> {
  draft: Drafts[K];
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<Drafts[K]>) => void;
}

function UploadForm({ draft, errors, set }: FormProps<'upload'>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const stage = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    setError('');
    const body = new FormData();
    for (const f of Array.from(files)) body.append('files', f, f.name);
    if (draft.kb.trim()) body.append('kb', draft.kb.trim());
    try {
      const staged: Staged = await ok(api.POST('/v1/ingest/upload', {
        body: body as never, bodySerializer: (b: unknown) => b as FormData }));
      set({ staged });
    } catch (e) {
      setError(message(e));
      set({ staged: null });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <Field id="upload-kb" label="Knowledge base" hint="empty: the default one" error={errors.kb}>
        <input id="upload-kb" value={draft.kb} onChange={(e) => set({ kb: e.target.value })} placeholder="default" />
      </Field>
      <Field id="upload-files" label="Files" hint="PDF, Office, HTML, Markdown, text, code, images…"
        error={draft.staged ? undefined : errors.files}>
        <input id="upload-files" ref={input} type="file" multiple disabled={busy}
          onChange={(e) => void stage(e.target.files)} />
      </Field>
      {busy ? <p role="status">Checking files…</p> : null}
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
      <Field id="folder-include" label="Include globs" hint="one per line; empty: every supported file">
        <textarea id="folder-include" rows={2} value={draft.include}
          onChange={(e) => set({ include: e.target.value })} placeholder="**/*.md" />
      </Field>
      <Field id="folder-exclude" label="Exclude globs" hint="one per line">
        <textarea id="folder-exclude" rows={2} value={draft.exclude}
          onChange={(e) => set({ exclude: e.target.value })} placeholder="**/drafts/**" />
      </Field>
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


/** The server's reason without the file name it repeats ("a.txt: empty" → "empty"). */
function reasonOf(name: string | null, reason: string | null): string {
  const r = reason ?? '';
  return name && r.startsWith(`${name}: `) ? r.slice(name.length + 2) : r;
}
