import { describe, expect, it } from 'vitest';
import { folderForm, uploadForm, webForm } from '../sources';
import { initialState, kbsStorage, loadKbs, reducer, saveKbs } from '../state';
import { queryBody, searchBody } from '../tabs/Search';
import { uploadBatches } from '../tabs/Sources';
import { initialControls } from '../state';

describe('the configured snapshot', () => {
  it('is frozen: later edits to the live form do not change what the run will do', () => {
    let s = initialState();
    s = reducer(s, { type: 'sourceKind', kind: 'folder' });
    s = reducer(s, { type: 'draft', kind: 'folder', patch: { sourceId: 'docs', root: '/srv/docs', include: '**/*.md' } });
    expect(folderForm.validate(s.drafts.folder)).toEqual({});
    s = reducer(s, { type: 'configure', snapshot: folderForm.snapshot(s.drafts.folder) });
    const before = JSON.stringify(s.configured);
    expect(s.tab).toBe('processing');

    s = reducer(s, { type: 'draft', kind: 'folder', patch: { root: '/elsewhere', include: '*.pdf' } });
    expect(JSON.stringify(s.configured)).toBe(before);
    expect(s.configured).toMatchObject({ kind: 'folder', root: '/srv/docs', include: ['**/*.md'] });
    expect(Object.isFrozen(s.configured)).toBe(true);
    expect(Object.isFrozen((s.configured as { include: string[] }).include)).toBe(true);
    expect(() => { (s.configured as { include: string[] }).include.push('x'); }).toThrow();
  });

  it('of an upload takes the checked files once started: the verdict goes, and a draft from another key is ignored',
    () => {
      let s = initialState('key-a');
      const staged = { accepted: [{ id: 'u1', name: 'a.pdf', size: 3 }], skipped: [] };
      s = reducer(s, { type: 'draft', kind: 'upload', patch: { staged } as never, asKey: 'key-a' });
      s = reducer(s, { type: 'configure', snapshot: uploadForm.snapshot(s.drafts.upload) });
      s = reducer(s, { type: 'runStarted', run: { jobId: 'j1', label: 'a', kind: 'upload', job: null } });
      expect(s.drafts.upload.staged).toBeNull();
      s = reducer(s, { type: 'apiKey', key: 'key-b' });
      s = reducer(s, { type: 'draft', kind: 'upload', patch: { staged } as never, asKey: 'key-a' });
      expect(s.drafts.upload.staged).toBeNull();
    });

  it('offers the sync toggle only for sources that can detect later changes', () => {
    expect(uploadForm.canSync).toBe(false);
    expect(folderForm.canSync).toBe(true);
    expect(webForm.canSync).toBe(true);
  });
});

describe('each form owns its validity', () => {
  it('upload: only once the server accepted at least one file', () => {
    expect(uploadForm.validate({ kb: '', staged: null })).toHaveProperty('files');
    expect(uploadForm.validate({ kb: '', staged: { accepted: [], skipped: [{ source: 'a', reason: 'empty' }] } }))
      .toHaveProperty('files');
    expect(uploadForm.validate({ kb: '', staged: { accepted: [{ id: '1', name: 'a.md', size: 3,
      media_type: 'text/markdown' }], skipped: [] } })).toEqual({});
    expect(uploadForm.validate({ kb: 'Bad KB', staged: null })).toHaveProperty('kb');
  });

  it('folder: an id, an absolute root, an interval of at least 30 s', () => {
    const errors = folderForm.validate({ sourceId: '-x', root: 'relative/path', include: '', exclude: '', kb: '',
      interval: '10' });
    expect(Object.keys(errors).sort()).toEqual(['interval', 'root', 'sourceId']);
  });

  it('web: an http(s) start URL and sane limits', () => {
    const errors = webForm.validate({ sourceId: 'site', startUrl: 'ftp://x', pathPrefix: 'docs', maxPages: '0',
      maxDepth: '3', kb: '', interval: '3600' });
    expect(Object.keys(errors).sort()).toEqual(['maxPages', 'pathPrefix', 'startUrl']);
  });
});

describe('an upload of many files', () => {
  const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
  it('goes in requests the server takes: under its size limit, at most 1000 files each', () => {
    const three = [file('a', 600), file('b', 600), file('c', 200)];
    expect(uploadBatches(three, 1000).map((b) => b.map((f) => f.name))).toEqual([['a'], ['b', 'c']]);
    expect(uploadBatches(three).map((b) => b.length)).toEqual([3]);
    const many = Array.from({ length: 2500 }, (_, i) => file(`f${i}`, 1));
    expect(uploadBatches(many, 1 << 30).map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(uploadBatches([file('huge', 5000)], 1000).map((b) => b.length)).toEqual([1]);
  });
});

describe('a change of key', () => {
  it('drops what work started under the last key brings back', () => {
    const before = reducer(initialState('key-a'), { type: 'search', patch: { query: 'q' } });
    const switched = reducer(before, { type: 'apiKey', key: 'key-b' });
    const late = reducer(switched, { type: 'search', patch: { error: 'x', results: null, answer: null,
      busy: false }, asKey: 'key-a' });
    expect(late).toBe(switched);
    const current = reducer(switched, { type: 'search', patch: { query: 'mine' }, asKey: 'key-b' });
    expect(current.search.query).toBe('mine');
    // A conversation opened under the first key, whose transcript came back after the switch, is not shown.
    const transcript = reducer(switched, { type: 'conversation', id: 'c1', turns: [{ id: 1, question: 'q',
      answer: 'a', sources: [], status: 'done', error: '', mode: '', note: '' }], asKey: 'key-a' });
    expect(transcript).toBe(switched);
  });
});

describe('the search controls', () => {
  it('map one to one onto the API request fields', () => {
    const c = { ...initialControls(), modalities: ['vector'], fusion: 'weighted' as const, rrfK: '30',
      weights: { vector: '0.7', fulltext: '' }, candidates: '200', documentWeight: '0.25', vectorDocumentWeight: '1', topK: '5',
      rerank: false,
      neighbours: '2' };
    expect(searchBody('q', c)).toEqual({ query: 'q', top_k: 5, modalities: ['vector'], fusion: 'weighted',
      rrf_k: null, weights: { vector: 0.7 }, candidates: 200, fulltext_document_weight: 0.25, vector_document_weight: 1,
      rerank: false,
      explain: true });
    expect(queryBody('q', { ...c, fusion: 'rrf' as const })).toMatchObject({ neighbours: 2, rrf_k: 30, weights: null });
    expect(queryBody('q', c)).not.toHaveProperty('explain');
    expect(searchBody('q', initialControls())).toMatchObject({ modalities: null, fusion: null, rrf_k: null,
      weights: null, candidates: null, fulltext_document_weight: null, vector_document_weight: null, rerank: null });
  });

  it('send RRF k and weights only with their fusion (the server default counted), their inputs greyed otherwise', () => {
    const bad = { ...initialControls(), rrfK: '0', weights: { vector: 'x' } };
    expect(searchBody('q', { ...bad, fusion: 'weighted' as const, weights: { vector: '0.5' } }).rrf_k).toBeNull();
    expect(searchBody('q', { ...bad, fusion: 'rrf' as const }).weights).toBeNull();
    expect(searchBody('q', { ...bad, weights: { vector: '2' } }, 'weighted')).toMatchObject({ rrf_k: null,
      weights: { vector: 2 } });
  });

  it('read "1,000" in a whole-number control as a thousand, and refuse a fraction there', () => {
    expect(searchBody('q', { ...initialControls(), candidates: '1,000' }).candidates).toBe(1000);
    expect(() => searchBody('q', { ...initialControls(), topK: '2.5' })).toThrow("Top-k: '2.5' is not a whole number");
  });

  it('read a decimal comma, and refuse a number they cannot read instead of sending the default', () => {
    expect(searchBody('q', { ...initialControls(), documentWeight: '0,5' }).fulltext_document_weight).toBe(0.5);
    expect(() => searchBody('q', { ...initialControls(), topK: 'ten' })).toThrow("Top-k: 'ten' is not a number");
    expect(() => queryBody('q', { ...initialControls(), neighbours: 'abc' })).toThrow(/Neighbours/);
  });

  it('send the chosen knowledge bases as kb, and none at all when every one is meant', () => {
    const c = { ...initialControls(), kbs: ['coast', 'harbour'] };
    expect(searchBody('q', c).kb).toEqual(['coast', 'harbour']);
    expect(queryBody('q', c).kb).toEqual(['coast', 'harbour']);
    expect(searchBody('q', initialControls())).not.toHaveProperty('kb');
    expect(queryBody('q', initialControls())).not.toHaveProperty('kb');
    expect(initialState('', ['coast']).search.controls.kbs).toEqual(['coast']);
  });
});

describe('the graph state', () => {
  it('merges neighbourhoods without duplicates and marks the expanded node', () => {
    let s = initialState();
    const a = { id: 'a', label: 'A', type: '', kind: 'entity' as const, expanded: false };
    const b = { id: 'b', label: 'B', type: '', kind: 'entity' as const, expanded: false };
    s = reducer(s, { type: 'graphMerge', nodes: [a, b], edges: [{ id: 'a|r|b', source: 'a', target: 'b', label: 'r' }],
      expanded: 'a', reset: true });
    s = reducer(s, { type: 'graphMerge', nodes: [b, a], edges: [{ id: 'a|r|b', source: 'a', target: 'b', label: 'r' }],
      expanded: 'b' });
    expect(s.graph.nodes.map((n) => [n.id, n.expanded])).toEqual([['a', true], ['b', true]]);
    expect(s.graph.edges).toHaveLength(1);
    expect(s.graph.selected).toBe('b');
  });
});

describe('job snapshots', () => {
  const job = (status: string, updated: string) => ({ id: 'j1', kind: 'ingest', status, error: null, attempts: 1,
    created_at: null, updated_at: updated, percentage: 0, eta_seconds: null, progress: null, knowledge_base: null,
    source_id: null, started_at: null });
  it('never go back in time or turn a finished job into a running one', () => {
    let s = reducer(initialState(), { type: 'runStarted', run: { jobId: 'j1', label: 'a', kind: 'upload', job: null } });
    s = reducer(s, { type: 'jobs', jobs: [job('running', '2026-01-01T00:00:02Z')] });
    s = reducer(s, { type: 'jobs', jobs: [job('succeeded', '2026-01-01T00:00:05Z')] });
    s = reducer(s, { type: 'jobs', jobs: [job('running', '2026-01-01T00:00:03Z')] });
    expect(s.runs[0].job?.status).toBe('succeeded');
    s = reducer(s, { type: 'jobs', jobs: [job('queued', '2026-01-01T00:00:09Z')] });
    expect(s.runs[0].job?.status).toBe('succeeded');
  });

  it('keep at most the newest hundred rows', () => {
    let s = initialState();
    s = reducer(s, { type: 'jobs', jobs: Array.from({ length: 150 }, (_, i) => ({ ...job('succeeded', 'x'),
      id: `j${i}` })) });
    expect(s.runs).toHaveLength(100);
  });
});

describe('another API key', () => {
  it('clears what the last tenant saw; the same key again keeps it', () => {
    let s = reducer(initialState('key-a'), { type: 'runStarted', run: { jobId: 'j1', label: 'a', kind: 'upload',
      job: null } });
    s = reducer(s, { type: 'search', patch: { query: 'their secret' } });
    s = reducer(s, { type: 'tab', tab: 'search' });
    expect(reducer(s, { type: 'apiKey', key: 'key-a' }).runs).toHaveLength(1);
    const other = reducer(s, { type: 'apiKey', key: 'key-b' });
    expect(other.apiKey).toBe('key-b');
    expect(other.runs).toHaveLength(0);
    expect(other.search.query).toBe('');
    expect(other.tab).toBe('search');
  });
});

describe('jobs started elsewhere', () => {
  it('go on top of the list, so a full list drops its oldest rows', () => {
    const job = (id: string) => ({ id, kind: 'sync', status: 'running', error: null, attempts: 1, created_at: null,
      updated_at: 'x', percentage: 0, eta_seconds: null, progress: null, knowledge_base: null, source_id: null,
      started_at: null });
    let s = reducer(initialState(), { type: 'jobs', jobs: Array.from({ length: 100 }, (_, i) => job(`old${i}`)) });
    s = reducer(s, { type: 'jobs', jobs: [job('new')] });
    expect(s.runs[0].jobId).toBe('new');
    expect(s.runs).toHaveLength(100);
    expect(s.runs.map((r) => r.jobId)).not.toContain('old99');
  });
});

describe('the remembered knowledge-base choice', () => {
  it('is kept per API key, under a name that is not the key', () => {
    localStorage.clear();
    expect(kbsStorage('')).toBe('polyrag.knowledgeBases');
    expect(kbsStorage('tenant-a-key')).not.toBe(kbsStorage('tenant-b-key'));
    expect(kbsStorage('tenant-a-key')).not.toContain('tenant-a-key');
    saveKbs(['coast'], 'tenant-a-key');
    expect(loadKbs('tenant-b-key')).toEqual([]);
    expect(loadKbs('')).toEqual([]);
    expect(loadKbs('tenant-a-key')).toEqual(['coast']);
    // Another key in the same tab starts from its own choice, and coming back restores the first key's.
    const b = reducer(initialState('tenant-a-key', ['coast']), { type: 'apiKey', key: 'tenant-b-key' });
    expect(b.search.controls.kbs).toEqual([]);
    expect(reducer(b, { type: 'apiKey', key: 'tenant-a-key' }).search.controls.kbs).toEqual(['coast']);
    localStorage.clear();
  });
});
