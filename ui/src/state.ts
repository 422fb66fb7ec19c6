// Every piece of state that must outlive a tab lives here, at the top of the app: panels unmount when inactive, so
// typed input, an unsent chat draft, search results and the transcript are kept in this one reducer.
import type { Answer, AnswerSource, Job, Results } from './api/client';
import { emptyDrafts, freeze, type Drafts, type SourceKind, type Snapshot } from './sources';

export const TABS = ['sources', 'processing', 'search', 'chat', 'kbs', 'graph'] as const;
export type Tab = (typeof TABS)[number];
export const TAB_LABELS: Record<Tab, string> = {
  sources: 'Sources', processing: 'Processing', search: 'Search', chat: 'Chat', kbs: 'Knowledge bases',
  graph: 'Graph',
};

export interface Controls {
  modalities: string[];
  fusion: 'rrf' | 'weighted' | '';
  rrfK: string;
  weights: Record<string, string>;
  /** Each leg's depth for this search; '' for the server's (search.candidates). */
  candidates: string;
  /** The full-text leg's blend of passage and whole document, 0-1; '' for the server's. */
  documentWeight: string;
  /** The vector leg's blend of passage and whole document, 0-1; '' for the server's. */
  vectorDocumentWeight: string;
  topK: string;
  /** null: the server's configured behaviour (rerank when a reranker is configured). */
  rerank: boolean | null;
  neighbours: string;
  explain: boolean;
  /** The knowledge bases Search and Chat are limited to; empty: all of yours. Remembered per browser. */
  kbs: string[];
}

export interface SearchState {
  query: string;
  mode: 'search' | 'answer';
  controls: Controls;
  results: Results | null;
  answer: Answer | null;
  error: string;
  busy: boolean;
}

export interface Turn {
  id: number;
  question: string;
  answer: string;
  sources: AnswerSource[];
  status: 'streaming' | 'done' | 'error';
  error: string;
  mode: string;
  /** What the server said of the answer (why it is empty, when it is). */
  note: string;
  /** What the search behind it warned of (a reranker that failed, an ingest still running), and legs left out. */
  warnings?: string[];
}

export interface Run {
  jobId: string;
  label: string;
  kind: SourceKind | 'job';
  job: Job | null;
}

export interface GraphNode {
  id: string;
  label: string;
  type: string;
  kind: 'entity' | 'document';
  expanded: boolean;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

/** Which figures an upload takes from PDFs and Office files; '' leaves it to the server (figures.extract). */
export type FigureChoice = '' | 'auto' | 'force' | 'skip';

export interface State {
  tab: Tab;
  apiKey: string;
  unauthorized: boolean;
  sourceKind: SourceKind;
  drafts: Drafts;
  configured: Snapshot | null;
  processing: { skipGraph: boolean; sync: boolean; figures: FigureChoice };
  runs: Run[];
  search: SearchState;
  /** {@code conversation}: the id the server keeps this transcript under ('' until the first question). */
  chat: { draft: string; turns: Turn[]; opened: { turn: number; source: number } | null; conversation: string };
  kb: { selected: string };
  graph: { query: string; nodes: GraphNode[]; edges: GraphEdge[]; selected: string };
}

export const initialControls = (): Controls => ({
  modalities: [], fusion: '', rrfK: '', weights: {}, candidates: '', documentWeight: '', vectorDocumentWeight: '', topK: '', rerank: null,
  neighbours: '', explain: true, kbs: [],
});

/**
 * Where the knowledge-base selection of Search and Chat (one, shared) is kept in this browser: one entry per API key
 * (each key is a tenant, whose knowledge bases are its own), named by a hash of the key, not the key.
 */
export const KBS_STORAGE = 'polyrag.knowledgeBases';

export function kbsStorage(apiKey: string): string {
  if (!apiKey) return KBS_STORAGE;
  let h = 0x811c9dc5; // FNV-1a, 32 bits: enough to keep tenants' entries apart, too short to stand for the key
  for (let i = 0; i < apiKey.length; i++) h = Math.imul(h ^ apiKey.charCodeAt(i), 0x01000193);
  return `${KBS_STORAGE}.${(h >>> 0).toString(16)}`;
}

/** The selection remembered under this key; empty when none is, or when storage is unreadable. */
export function loadKbs(apiKey = ''): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(kbsStorage(apiKey)) ?? '[]');
    return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string' && n !== '') : [];
  } catch {
    return [];
  }
}

export function saveKbs(kbs: string[], apiKey = '') {
  try {
    if (kbs.length) localStorage.setItem(kbsStorage(apiKey), JSON.stringify(kbs));
    else localStorage.removeItem(kbsStorage(apiKey));
  } catch {
    // Storage refused (private mode, quota): the selection lasts this page only.
  }
}

export const initialState = (apiKey = '', kbs: string[] = []): State => ({
  tab: 'sources',
  apiKey,
  unauthorized: false,
  sourceKind: 'upload',
  drafts: emptyDrafts(),
  configured: null,
  processing: { skipGraph: false, sync: true, figures: '' },
  runs: [],
  search: { query: '', mode: 'search', controls: { ...initialControls(), kbs }, results: null, answer: null, error: '',
    busy: false },
  chat: { draft: '', turns: [], opened: null, conversation: '' },
  kb: { selected: '' },
  graph: { query: '', nodes: [], edges: [], selected: '' },
});

export type Action = (
  | { type: 'tab'; tab: Tab }
  | { type: 'apiKey'; key: string }
  | { type: 'unauthorized'; value: boolean }
  | { type: 'sourceKind'; kind: SourceKind }
  | { type: 'draft'; kind: SourceKind; patch: Partial<Drafts[SourceKind]> }
  | { type: 'configure'; snapshot: Snapshot }
  | { type: 'unconfigure' }
  | { type: 'processing'; patch: Partial<State['processing']> }
  | { type: 'runStarted'; run: Run }
  | { type: 'track'; run: Run }
  | { type: 'jobs'; jobs: Job[] }
  | { type: 'search'; patch: Partial<SearchState> }
  | { type: 'controls'; patch: Partial<Controls> }
  | { type: 'chatDraft'; draft: string }
  | { type: 'conversation'; id: string; turns?: Turn[] }
  | { type: 'ask'; turn: Turn }
  | { type: 'turn'; id: number; patch: Partial<Turn> | ((t: Turn) => Partial<Turn>) }
  | { type: 'openCitation'; turn: number; source: number }
  | { type: 'closeCitation' }
  | { type: 'kb'; selected: string }
  | { type: 'graphQuery'; query: string }
  | { type: 'graphMerge'; nodes: GraphNode[]; edges: GraphEdge[]; expanded?: string; reset?: boolean }
  | { type: 'graphSelect'; id: string }
) & {
  /**
   * The API key the work behind this action started under (an answer, a started job, a graph's neighbours): set,
   * the action lands only while that key is still the one in use — another key is another tenant.
   */
  asKey?: string;
};

/** What a job does, in words: "upload", "sync of handbook", "reindex". */
export function jobWords(job: Pick<Job, 'kind' | 'source_id'>): string {
  switch (job.kind) {
    case 'ingest-upload':
      return 'upload';
    case 'sync':
      return job.source_id ? `sync of ${job.source_id}` : 'sync';
    case 'reindex':
      return 'reindex';
    case 'tune':
      return 'fusion tuning';
    default:
      return job.kind ?? 'job';
  }
}

const TERMINAL = new Set(['succeeded', 'partial', 'failed', 'canceled']);
export const isTerminal = (status: string | null | undefined) => !!status && TERMINAL.has(status);

/** Rows kept in Processing: the newest; older jobs stay on the server (GET /v1/jobs). */
export const MAX_RUNS = 100;

/** Whether a job snapshot may replace the one shown. */
export function newer(next: Job, current: Job | null): boolean {
  if (!current) return true;
  if (isTerminal(current.status) && !isTerminal(next.status)) return false;
  return !current.updated_at || !next.updated_at || next.updated_at >= current.updated_at;
}

export function reducer(state: State, a: Action): State {
  if (a.asKey !== undefined && a.asKey !== state.apiKey) {
    return state; // started under the last key: nothing of it shows under this one
  }
  switch (a.type) {
    case 'tab':
      return { ...state, tab: a.tab };
    case 'apiKey':
      // Another key is another tenant: nothing the last one saw (results, transcript, jobs, graph, the chosen
      // knowledge base) may stay on screen or be sent with the new key. The same key again keeps it all.
      // What this key chose before comes back: its own remembered selection.
      return a.key === state.apiKey ? { ...state, unauthorized: false }
        : { ...initialState(a.key, loadKbs(a.key)), tab: state.tab };
    case 'unauthorized':
      return { ...state, unauthorized: a.value };
    case 'sourceKind':
      return { ...state, sourceKind: a.kind };
    case 'draft':
      return { ...state, drafts: { ...state.drafts, [a.kind]: { ...state.drafts[a.kind], ...a.patch } } };
    case 'configure':
      // A deep copy, frozen: editing the live form afterwards cannot reach it.
      return { ...state, configured: freeze(structuredClone(a.snapshot)), tab: 'processing',
        processing: { ...state.processing, sync: a.snapshot.kind !== 'upload' } };
    case 'unconfigure':
      return { ...state, configured: null };
    case 'processing':
      return { ...state, processing: { ...state.processing, ...a.patch } };
    case 'runStarted':
      // An upload started takes its checked files: the verdict goes, or Configure again sent ids already taken
      // (404, "expired").
      // Only the verdict whose files it took: another choice made since stays.
      return { ...state, configured: null, runs: [a.run, ...state.runs.filter((r) => r.jobId !== a.run.jobId)]
        .slice(0, MAX_RUNS), drafts: state.configured?.kind === 'upload' && (state.drafts.upload.staged?.accepted
          ?? []).every((f) => (state.configured as { files: { id: string }[] }).files.some((c) => c.id === f.id))
        ? { ...state.drafts, upload: { ...state.drafts.upload, staged: null } } : state.drafts };
    case 'track':
      // A job started elsewhere than Processing's Start (a source's Sync now, Resume, Edit): shown, nothing else.
      return { ...state, runs: [a.run, ...state.runs.filter((r) => r.jobId !== a.run.jobId)].slice(0, MAX_RUNS) };
    case 'jobs': {
      const byId = new Map(a.jobs.map((j) => [j.id ?? '', j]));
      // Snapshots arrive from the stream, the list and single reads in any order: an older one, or one that would
      // turn a finished job back into a running one, is ignored.
      const runs = state.runs.map((r) => (byId.has(r.jobId) && newer(byId.get(r.jobId)!, r.job)
        ? { ...r, job: byId.get(r.jobId)! } : r));
      const known = new Set(runs.map((r) => r.jobId));
      const added = a.jobs.filter((j) => j.id && !known.has(j.id))
        .map((j): Run => ({ jobId: j.id!, label: jobWords(j), kind: 'job', job: j }));
      // Jobs not yet listed are newer than the rows (the list and the stream come newest first): on top, so that
      // a full list drops its oldest rows, not what just started.
      return { ...state, runs: [...added, ...runs].slice(0, MAX_RUNS) };
    }
    case 'search':
      return { ...state, search: { ...state.search, ...a.patch } };
    case 'controls':
      return { ...state, search: { ...state.search, controls: { ...state.search.controls, ...a.patch } } };
    case 'chatDraft':
      return { ...state, chat: { ...state.chat, draft: a.draft } };
    case 'conversation':
      // A new (id '') or another kept conversation replaces the transcript; the first question names one.
      return { ...state, chat: { ...state.chat, conversation: a.id, turns: a.turns ?? (a.id && a.id ===
        state.chat.conversation ? state.chat.turns : []), opened: a.turns || a.id !== state.chat.conversation
        ? null : state.chat.opened } };
    case 'ask':
      return { ...state, chat: { ...state.chat, draft: '', turns: [...state.chat.turns, a.turn] } };
    case 'turn':
      return { ...state, chat: { ...state.chat, turns: state.chat.turns.map((t) => (t.id === a.id
        ? { ...t, ...(typeof a.patch === 'function' ? a.patch(t) : a.patch) } : t)) } };
    case 'openCitation':
      return { ...state, chat: { ...state.chat, opened: { turn: a.turn, source: a.source } } };
    case 'closeCitation':
      return { ...state, chat: { ...state.chat, opened: null } };
    case 'kb':
      return { ...state, kb: { selected: a.selected } };
    case 'graphQuery':
      return { ...state, graph: { ...state.graph, query: a.query } };
    case 'graphMerge': {
      const nodes = new Map((a.reset ? [] : state.graph.nodes).map((n) => [n.id, n]));
      a.nodes.forEach((n) => { if (!nodes.has(n.id)) nodes.set(n.id, n); });
      if (a.expanded && nodes.has(a.expanded)) nodes.set(a.expanded, { ...nodes.get(a.expanded)!, expanded: true });
      const edges = new Map((a.reset ? [] : state.graph.edges).map((e) => [e.id, e]));
      a.edges.forEach((e) => edges.set(e.id, e));
      return { ...state, graph: { ...state.graph, nodes: [...nodes.values()], edges: [...edges.values()],
        selected: a.expanded ?? state.graph.selected } };
    }
    case 'graphSelect':
      return { ...state, graph: { ...state.graph, selected: a.id } };
  }
}
