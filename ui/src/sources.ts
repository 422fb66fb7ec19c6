// The source types the Sources tab offers. Each form owns its validity rules behind one interface; "Configure
// processing" freezes a snapshot of a valid form, so later edits to the live form do not change a configured run.
import type { SourceBody, Staged, SyncSource } from './api/client';

export type SourceKind = 'upload' | 'folder' | 'web' | 's3';

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

export interface S3Draft {
  sourceId: string;
  bucket: string;
  prefix: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  include: string;
  exclude: string;
  kb: string;
  interval: string;
}

export interface Drafts {
  upload: UploadDraft;
  folder: FolderDraft;
  web: WebDraft;
  s3: S3Draft;
}

/** What a configured run will do: a deep, frozen copy of the form at the moment it was configured. */
export type Snapshot =
  | { kind: 'upload'; kb: string; files: { id: string; name: string }[] }
  | { kind: 'folder'; sourceId: string; root: string; include: string[]; exclude: string[]; kb: string;
      interval: number }
  | { kind: 'web'; sourceId: string; startUrl: string; pathPrefix: string; maxPages: number; maxDepth: number;
      kb: string; interval: number }
  | { kind: 's3'; sourceId: string; bucket: string; prefix: string; endpoint: string; region: string;
      accessKeyId: string; secretAccessKey: string; include: string[]; exclude: string[]; kb: string;
      interval: number };

export interface SourceForm<K extends SourceKind> {
  kind: K;
  group: 'Files' | 'Server' | 'Web' | 'Cloud';
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
  s3: { sourceId: '', bucket: '', prefix: '', endpoint: '', region: 'us-east-1', accessKeyId: '', secretAccessKey: '',
    include: '', exclude: '', kb: '', interval: '3600' },
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

/**
 * One entry per line, or comma-separated outside braces and brackets as the CLI takes them: `*.{md,txt}` is one
 * glob (split at its comma, the server refused the halves, and a source registered with one could not be
 * edited here at all).
 */
export function lines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let depth = 0;
    let from = 0;
    for (let i = 0; i <= line.length; i++) {
      const c = line[i];
      if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && depth > 0) depth--;
      else if (i === line.length || (c === ',' && depth === 0)) {
        out.push(line.slice(from, i));
        from = i + 1;
      }
    }
  }
  return out.map((s) => s.trim()).filter(Boolean);
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

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function endpointError(endpoint: string): string | undefined {
  if (endpoint.trim() === '') return undefined;
  try {
    const url = new URL(endpoint.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.search ? undefined
      : 'an http:// or https:// URL without user or query';
  } catch {
    return 'an http:// or https:// URL, e.g. https://minio.example.com:9000; empty for AWS';
  }
}

export const s3Form: SourceForm<'s3'> = {
  kind: 's3',
  group: 'Cloud',
  label: 'An S3 bucket',
  canSync: true,
  validate: (d) => clean({
    sourceId: SOURCE_ID.test(d.sourceId.trim()) ? undefined
      : 'an id: 1-64 lower-case letters, digits, ., _ or -, starting with a letter or digit',
    bucket: BUCKET.test(d.bucket.trim()) ? undefined : 'a bucket name: 3-63 lower-case letters, digits, . or -',
    prefix: d.prefix.trim().startsWith('/') ? 'a key prefix does not start with /' : undefined,
    endpoint: endpointError(d.endpoint),
    region: /^[a-z0-9-]{1,32}$/.test(d.region.trim()) ? undefined : 'a region, e.g. us-east-1',
    secretAccessKey: (d.accessKeyId.trim() === '') === (d.secretAccessKey.trim() === '') ? undefined
      : 'the access key id and the secret go together: both, or neither for a public bucket',
    kb: kbError(d.kb),
    interval: intIn(d.interval, 30, 604800, 'seconds between scans'),
  }),
  snapshot: (d) => ({
    kind: 's3',
    sourceId: d.sourceId.trim(),
    bucket: d.bucket.trim(),
    prefix: d.prefix.trim(),
    endpoint: d.endpoint.trim(),
    region: d.region.trim(),
    accessKeyId: d.accessKeyId.trim(),
    secretAccessKey: d.secretAccessKey.trim(),
    include: lines(d.include),
    exclude: lines(d.exclude),
    kb: d.kb.trim(),
    interval: Number(d.interval),
  }),
};

export const FORMS = { upload: uploadForm, folder: folderForm, web: webForm, s3: s3Form } as const;

/** Freezes a snapshot deeply, so nothing can change what a configured run will do. */
export function freeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value as object).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

// Registered sync sources (GET /v1/sync/sources): what each reads, and the small form that changes one
// (PUT /v1/sync/sources/{id}, the body of POST: the whole of its settings, not a patch).

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** One URL a line (a URL may hold a comma). */
function urlLines(text: string): string[] {
  return text.split('\n').map((s) => s.trim()).filter(Boolean);
}

/** What a source reads, in a line: a folder's root; a site's start URL(s), with the path prefix it keeps to. */
export function sourceReads(s: SyncSource): string {
  const c = s.config ?? {};
  if (s.type === 'filesystem') return typeof c.root === 'string' ? c.root : '';
  if (s.type === 'web') {
    const urls = strings(c.start_urls);
    const prefix = typeof c.path_prefix === 'string' && c.path_prefix !== '/' ? ` (below ${c.path_prefix})` : '';
    return urls.join(', ') + prefix;
  }
  if (s.type === 's3') {
    const at = typeof c.endpoint === 'string' && c.endpoint !== '' ? ` at ${c.endpoint}` : '';
    return `s3://${typeof c.bucket === 'string' ? c.bucket : ''}/${typeof c.prefix === 'string' ? c.prefix : ''}${at}`;
  }
  return '';
}

/** The kind of a source in words. */
export function sourceTypeLabel(type: string | null): string {
  return type === 'filesystem' ? 'folder on the server' : type === 'web' ? 'web site'
    : type === 's3' ? 'S3 bucket' : type ?? '';
}

export interface EditDraft {
  interval: string;
  enabled: boolean;
  root: string;
  include: string;
  exclude: string;
  startUrls: string;
  pathPrefix: string;
  maxPages: string;
  maxDepth: string;
  prefix: string;
  /** A new secret for an s3 source; empty keeps the stored one. */
  secretAccessKey: string;
}

/** The edit form of a source, filled with its settings. */
export function editDraft(s: SyncSource): EditDraft {
  const c = s.config ?? {};
  const text = (v: unknown, fallback = '') => (typeof v === 'number' || typeof v === 'string' ? String(v) : fallback);
  return {
    interval: String(s.interval_seconds),
    enabled: s.enabled,
    root: text(c.root),
    include: strings(c.include).join('\n'),
    exclude: strings(c.exclude).join('\n'),
    startUrls: strings(c.start_urls).join('\n'),
    pathPrefix: c.path_prefix === '/' ? '' : text(c.path_prefix),
    maxPages: text(c.max_pages, '100'),
    maxDepth: text(c.max_depth, '3'),
    prefix: text(c.prefix),
    secretAccessKey: '',
  };
}

/** What is wrong with an edit, by field; empty when it can be saved. */
export function validateEdit(type: string | null, d: EditDraft): Partial<Record<string, string>> {
  const interval = intIn(d.interval, 30, 604800, 'seconds between scans');
  if (type === 'web') {
    const urls = urlLines(d.startUrls);
    const bad = urls.find((u) => {
      try {
        const url = new URL(u);
        return url.protocol !== 'http:' && url.protocol !== 'https:';
      } catch {
        return true;
      }
    });
    return clean({
      startUrls: urls.length === 0 ? 'at least one start URL: http:// or https://'
        : bad ? `not an http:// or https:// URL: ${bad}` : undefined,
      pathPrefix: d.pathPrefix.trim() === '' || d.pathPrefix.trim().startsWith('/') ? undefined
        : 'a path prefix starts with /',
      maxPages: intIn(d.maxPages, 1, 100000, 'pages'),
      maxDepth: intIn(d.maxDepth, 0, 20, 'link depth'),
      interval,
    });
  }
  if (type === 's3') {
    return clean({
      prefix: d.prefix.trim().startsWith('/') ? 'a key prefix does not start with /' : undefined,
      interval,
    });
  }
  return clean({
    root: /^(\/|[A-Za-z]:[\\/])/.test(d.root.trim()) ? undefined : 'the absolute path of a folder on the server',
    interval,
  });
}

/**
 * The PUT body for an edit: the source's whole settings. Its id, type and knowledge base stay (the server refuses
 * to change them); config keys the form does not show (follow_symlinks, skip_graph, an s3 source's endpoint) are
 * kept as they were, and an s3 source's secret, which a read shows hidden, is kept unless a new one is typed.
 */
export function editBody(s: SyncSource, d: EditDraft): SourceBody {
  const config: Record<string, unknown> = { ...(s.config ?? {}) };
  if (s.type === 'web') {
    config.start_urls = urlLines(d.startUrls);
    config.path_prefix = d.pathPrefix.trim() || '/';
    config.max_pages = Number(d.maxPages);
    config.max_depth = Number(d.maxDepth);
  } else if (s.type === 's3') {
    config.prefix = d.prefix.trim();
    config.include = lines(d.include);
    config.exclude = lines(d.exclude);
    if (d.secretAccessKey.trim() !== '') config.secret_access_key = d.secretAccessKey.trim();
  } else {
    config.root = d.root.trim();
    config.include = lines(d.include);
    config.exclude = lines(d.exclude);
  }
  return { source_id: s.source_id, type: s.type, config, kb: s.knowledge_base, interval_seconds: Number(d.interval),
    enabled: d.enabled };
}
