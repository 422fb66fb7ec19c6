// The source types the Sources tab offers. Each form owns its validity rules behind one interface; "Configure
// processing" freezes a snapshot of a valid form, so later edits to the live form do not change a configured run.
import type { Staged } from './api/client';

export type SourceKind = 'upload' | 'folder' | 'web';

export interface UploadDraft {
  kb: string;
  /** The staging verdict of the chosen files: what the server accepted, what it skipped and why. */
  staged: Staged | null;
}

export interface FolderDraft {
  sourceId: string;
  root: string;
  include: string;
  exclude: string;
  kb: string;
  interval: string;
}

export interface WebDraft {
  sourceId: string;
  startUrl: string;
  pathPrefix: string;
  maxPages: string;
  maxDepth: string;
  kb: string;
  interval: string;
}

export interface Drafts {
  upload: UploadDraft;
  folder: FolderDraft;
  web: WebDraft;
}

/** What a configured run will do: a deep, frozen copy of the form at the moment it was configured. */
export type Snapshot =
  | { kind: 'upload'; kb: string; files: { id: string; name: string }[] }
  | { kind: 'folder'; sourceId: string; root: string; include: string[]; exclude: string[]; kb: string;
      interval: number }
  | { kind: 'web'; sourceId: string; startUrl: string; pathPrefix: string; maxPages: number; maxDepth: number;
      kb: string; interval: number };

export interface SourceForm<K extends SourceKind> {
  kind: K;
  group: 'Files' | 'Server' | 'Web';
  label: string;
  /** Whether this type can detect later changes, so a sync toggle makes sense. */
  canSync: boolean;
  /** What is wrong with the draft, by field; empty when it is valid. */
  validate(draft: Drafts[K]): Partial<Record<string, string>>;
  snapshot(draft: Drafts[K]): Snapshot;
}

export const emptyDrafts = (): Drafts => ({
  upload: { kb: '', staged: null },
  folder: { sourceId: '', root: '', include: '', exclude: '', kb: '', interval: '300' },
  web: { sourceId: '', startUrl: '', pathPrefix: '', maxPages: '100', maxDepth: '3', kb: '', interval: '3600' },
});

const KB = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const SOURCE_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function kbError(kb: string): string | undefined {
  return kb.trim() === '' || KB.test(kb.trim()) ? undefined
    : 'a knowledge base name: 1-64 lower-case letters, digits, ., _ or -, starting with a letter or digit';
}

function intIn(value: string, min: number, max: number, what: string): string | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? undefined : `${what}: a whole number from ${min} to ${max}`;
}

function lines(text: string): string[] {
  return text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
}

function clean<T extends Record<string, string | undefined>>(errors: T): Partial<Record<string, string>> {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as Partial<Record<string, string>>;
}

export const uploadForm: SourceForm<'upload'> = {
  kind: 'upload',
  group: 'Files',
  label: 'Upload files',
  canSync: false,
  validate: (d) => clean({
    kb: kbError(d.kb),
    files: !d.staged ? 'choose files: each is checked by the server before anything is ingested'
      : d.staged.accepted?.length ? undefined : 'no file was accepted: see the reasons below',
  }),
  snapshot: (d) => ({
    kind: 'upload',
    kb: d.kb.trim(),
    files: (d.staged?.accepted ?? []).map((f) => ({ id: f.id ?? '', name: f.name ?? '' })),
  }),
};

export const folderForm: SourceForm<'folder'> = {
  kind: 'folder',
  group: 'Server',
  label: 'A folder on the server',
  canSync: true,
  validate: (d) => clean({
    sourceId: SOURCE_ID.test(d.sourceId.trim()) ? undefined
      : 'an id: 1-64 lower-case letters, digits, ., _ or -, starting with a letter or digit',
    root: /^(\/|[A-Za-z]:[\\/])/.test(d.root.trim()) ? undefined : 'the absolute path of a folder on the server',
    kb: kbError(d.kb),
    interval: intIn(d.interval, 30, 604800, 'seconds between scans'),
  }),
  snapshot: (d) => ({
    kind: 'folder',
    sourceId: d.sourceId.trim(),
    root: d.root.trim(),
    include: lines(d.include),
    exclude: lines(d.exclude),
    kb: d.kb.trim(),
    interval: Number(d.interval),
  }),
};

export const webForm: SourceForm<'web'> = {
  kind: 'web',
  group: 'Web',
  label: 'A web site',
  canSync: true,
  validate: (d) => {
    let url: URL | null = null;
    try {
      url = new URL(d.startUrl.trim());
    } catch {
      url = null;
    }
    return clean({
      sourceId: SOURCE_ID.test(d.sourceId.trim()) ? undefined
        : 'an id: 1-64 lower-case letters, digits, ., _ or -, starting with a letter or digit',
      startUrl: url && (url.protocol === 'http:' || url.protocol === 'https:') ? undefined
        : 'a start URL: http:// or https://',
      pathPrefix: d.pathPrefix.trim() === '' || d.pathPrefix.trim().startsWith('/') ? undefined
        : 'a path prefix starts with /',
      maxPages: intIn(d.maxPages, 1, 100000, 'pages'),
      maxDepth: intIn(d.maxDepth, 0, 20, 'link depth'),
      kb: kbError(d.kb),
      interval: intIn(d.interval, 30, 604800, 'seconds between crawls'),
    });
  },
  snapshot: (d) => ({
    kind: 'web',
    sourceId: d.sourceId.trim(),
    startUrl: d.startUrl.trim(),
    pathPrefix: d.pathPrefix.trim(),
    maxPages: Number(d.maxPages),
    maxDepth: Number(d.maxDepth),
    kb: d.kb.trim(),
    interval: Number(d.interval),
  }),
};

export const FORMS = { upload: uploadForm, folder: folderForm, web: webForm } as const;

/** Freezes a snapshot deeply, so nothing can change what a configured run will do. */
export function freeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value as object).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}
