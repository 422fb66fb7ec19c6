import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { explorerOn } from '../tabs/Graph';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status,
  headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' } });

const config = { version: 'test', modalities: ['fulltext', 'vector'], backends: {}, embedding_model: 'm',
  dimension: 3, fusion: 'rrf', weights: { vector: 1, fulltext: 1 }, rrf_k: 60, reranker: 'none',
  answers: 'extractive', answer_model: null, graph_extractor: 'none', chunk_max_tokens: 256,
  max_request_bytes: 1000 };
const hit = { rank: 1, score: 0.5, document_id: 'd1', chunk_id: 'c1', uri: 'file:/a.md', title: 'Curie',
  text: 'Marie Curie worked at the Radium Institute.', kind: 'prose', heading_path: [], location: 'page 2',
  knowledge_base: 'default', version: 1, ordinal: 0, retrievers: { vector: { rank: 1, score: 0.9 },
    fulltext: { rank: 3, score: 2.1 } }, merged: [], explain: null };

const figure = { id: 'd1/1', number: 1, caption: 'Figure 1: Radium output by year', location: 'page 2',
  media_type: 'image/png', width: 640, height: 400, anchored: true, url: '/v1/documents/d1/figures/1' };

let requests: { url: string; search: string; method: string; auth: string | null; body: string }[] = [];
let keysRequired = false;
let kbNames = ['coast'];
let jobList: unknown[] = [];
let answerSources: unknown[] | null = null;
let answerWarnings: string[] | null = null;
let hangQuery = false;
let cutQuery = false;
let modelDown = false;
let docTotal: number | null = null;
let uploads = 0;
let uploadGate: Promise<void> | null = null;
let tidesGate: Promise<void> | null = null;
let busyServer = false;
let sendGate: Promise<void> | null = null;
let uploadStatus = 201;
let firstTooLarge = false;

/**
 * The browser's XMLHttpRequest over the stubbed fetch: an upload reports half its bytes sent, waits at `sendGate`
 * (a slow link), reports the rest and is then answered by the stub; abort() before the answer ends it as a browser's.
 */
class FetchXhr {
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  private readonly headers: Record<string, string> = {};
  private ended = false;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  abort() {
    if (this.ended) return;
    this.ended = true;
    this.onabort?.();
  }

  async send(body: FormData) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 500, total: 1000 });
    if (sendGate) await sendGate;
    if (this.ended) return;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 1000, total: 1000 });
    const response = await fetch(new Request(this.url, { method: this.method, headers: this.headers, body }));
    const text = await response.text();
    if (this.ended) return;
    this.ended = true;
    this.status = response.status;
    this.responseText = text;
    this.onload?.();
  }
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const syncSource = (id: string, type: 'filesystem' | 'web' | 's3', config: Record<string, unknown>, more = {}) => ({
  source_id: id, type, config, knowledge_base: 'coast', interval_seconds: 300, enabled: true,
  created_at: minutesAgo(60), last_scan_at: minutesAgo(3), last_error: null as string | null, items: 4, ...more });
let sources: ReturnType<typeof syncSource>[] = [];

const kbRow = (name: string) => ({ name, description: '', created_at: '2026-01-01T00:00:00Z', documents: 3,
  chunks: 5 });
const doc = (id: string, title: string, original: boolean) => ({ id, knowledge_base: 'coast', uri: `file:/${title}`,
  title, media_type: 'text/plain', content_hash: 'h', size_bytes: 10, status: 'indexed', version: 1, chunks: 2,
  updated_at: '2026-01-01T00:00:00Z', categories: [], subcategory: null, external_ref: null, original });
const docs = [doc('up1', 'Tides.pdf', true), doc('tx1', 'Pasted notes', false)];

beforeEach(() => {
  requests = [];
  keysRequired = false;
  kbNames = ['coast'];
  jobList = [];
  answerSources = null;
  answerWarnings = null;
  hangQuery = false;
  cutQuery = false;
  modelDown = false;
  docTotal = null;
  uploads = 0;
  uploadGate = null;
  sendGate = null;
  uploadStatus = 201;
  firstTooLarge = false;
  vi.stubGlobal('XMLHttpRequest', FetchXhr);
  tidesGate = null;
  busyServer = false;
  sources = [
    syncSource('handbook', 'filesystem', { root: '/srv/handbook', include: ['**/*.md'], exclude: [],
      follow_symlinks: true, skip_graph: false }),
    syncSource('docs-site', 'web', { start_urls: ['https://docs.example.com/guide/'], path_prefix: '/guide/',
      max_pages: 100, max_depth: 3, skip_graph: false }, { enabled: false, interval_seconds: 3600,
      last_error: 'https://docs.example.com/guide/: connection refused', items: 0 }),
  ];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), location.origin), init);
    const url = new URL(request.url);
    const auth = request.headers.get('Authorization');
    requests.push({ url: url.pathname, search: url.search, method: request.method, auth, body: request.method === 'POST'
      || request.method === 'PUT' ? await request.clone().text() : request.method === 'DELETE' ? url.search : '' });
    if (url.pathname === '/health') return json({ status: 'ok', auth: keysRequired ? 'keys' : 'local' });
    if (keysRequired && auth !== 'Bearer good-key') {
      return json({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'a valid API key is required' },
        401);
    }
    if (url.pathname === '/v1/configuration') return json(config);
    if (url.pathname === '/v1/conversations') {
      // A full first page of 50 (the newest, 'tides', among them), then one older conversation.
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const page = offset === 0 ? [{ id: 'tides', title: 'When is high tide?', turns: 2, created_at: minutesAgo(5),
        updated_at: minutesAgo(4), messages: [] }, ...Array.from({ length: 49 }, (_, i) => ({ id: `c${i}`,
        title: `Question ${i}`, turns: 1, created_at: minutesAgo(10 + i), updated_at: minutesAgo(10 + i),
        messages: [] }))] : [{ id: 'oldest', title: 'The first question', turns: 1, created_at: minutesAgo(900),
        updated_at: minutesAgo(900), messages: [] }];
      return json({ conversations: page, offset, limit: 50 });
    }
    if (busyServer && (url.pathname === '/v1/ingest/upload' || request.method === 'DELETE')) {
      return json({ title: 'Service Unavailable', status: 503, detail: 'every parser of this server is busy' }, 503);
    }
    if (url.pathname === '/v1/conversations/tides' && request.method === 'DELETE') {
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/v1/conversations/tides' && tidesGate) await tidesGate;
    if (url.pathname === '/v1/conversations/c0') {
      return json({ id: 'c0', title: 'Question 0', turns: 1, created_at: minutesAgo(10), updated_at: minutesAgo(10),
        messages: [{ role: 'user', content: 'Question 0?' }, { role: 'assistant', content: 'Answer 0.' }] });
    }
    if (url.pathname === '/v1/conversations/tides') {
      return json({ id: 'tides', title: 'When is high tide?', turns: 2, created_at: minutesAgo(5),
        updated_at: minutesAgo(4), messages: [{ role: 'user', content: 'When is high tide?' },
          { role: 'assistant', content: 'At 06:40. [1]' }, { role: 'user', content: 'And low tide?' },
          { role: 'assistant', content: 'At 12:55. [1]' }] });
    }
    if (url.pathname === '/v1/jobs') return json({ jobs: jobList, offset: 0, limit: 20 });
    const job = /^\/v1\/jobs\/([^/]+)$/.exec(url.pathname);
    if (job) {
      return json({ id: job[1], kind: 'sync', status: 'queued', error: null, attempts: 0, created_at: minutesAgo(0),
        updated_at: minutesAgo(0), percentage: 0, eta_seconds: null, progress: null, knowledge_base: 'coast',
        source_id: 'handbook', started_at: null });
    }
    if (url.pathname === '/v1/sync/sources' && request.method === 'GET') return json({ sources });
    if (url.pathname === '/v1/sync/sources' && request.method === 'POST') {
      const b = JSON.parse(await request.clone().text());
      const added = syncSource(b.source_id, b.type, b.config, { knowledge_base: b.kb ?? 'default',
        interval_seconds: b.interval_seconds, enabled: b.enabled, last_scan_at: null, items: 0 });
      sources = [...sources, added];
      return json({ source: added, job_id: 'job-new-1' }, 201);
    }
    const source = /^\/v1\/sync\/sources\/([^/]+)(?:\/(enable|disable|sync-now))?$/.exec(url.pathname);
    if (source) {
      const s = sources.find((x) => x.source_id === source[1]);
      if (!s) return json({ title: 'Not Found', status: 404, detail: `no sync source '${source[1]}'` }, 404);
      if (source[2] === 'sync-now') {
        return s.enabled ? json({ job_id: 'job-sync-1', location: '/v1/jobs/job-sync-1' }, 202)
          : json({ title: 'Conflict', status: 409, detail: `source '${s.source_id}' is disabled: enable it first` },
            409);
      }
      if (source[2]) {
        s.enabled = source[2] === 'enable';
        return json({ source: s, job_id: s.enabled ? 'job-sync-2' : null });
      }
      if (request.method === 'PUT') {
        const b = JSON.parse(await request.clone().text());
        Object.assign(s, { config: b.config, interval_seconds: b.interval_seconds, enabled: b.enabled });
        return json({ source: s, job_id: b.enabled ? 'job-sync-3' : null });
      }
      if (request.method === 'DELETE') {
        sources = sources.filter((x) => x !== s);
        return json({ id: s.source_id, documents_deleted: url.searchParams.get('documents') === 'true' ? 4 : 0 });
      }
    }
    if (url.pathname === '/v1/events') {
      return new Response(new ReadableStream({ start() { /* never ends, like the server's */ } }),
        { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/search') {
      return json({ query: 'q', took_ms: 3, modalities: ['vector'], degraded: [], warnings: [], fusion: 'rrf',
        hits: [request.method === 'POST' && (await request.clone().text()).includes('chart') ? { ...hit,
          figures: [figure] } : hit] });
    }
    if (url.pathname === '/v1/query' && modelDown) {
      // As the server answers a model that failed before its first token: a 502 problem, the sources still in it.
      return json({ title: 'Bad Gateway', status: 502, detail: 'the language model is down', sources: [{ number: 1,
        document_id: 'd1', title: 'Tide tables', uri: 'file:///t.md', knowledge_base: 'default', passages: [],
        figures: [] }] }, 502);
    }
    if (url.pathname === '/v1/query' && cutQuery) {
      // A proxy or a restart closing the stream mid-answer: tokens, then the end, no 'answer' event.
      return new Response('event: token\ndata: {"text":"The tide turns"}\n\n',
        { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/query' && hangQuery) {
      // An answer still being written, until the client hangs up.
      return new Response(new ReadableStream({ start(c) {
        init?.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
      } }), { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/query') {
      const answer = { query: 'q', answer: '', mode: 'extractive', took_ms: 4, degraded: [], grounding: null,
        note: 'No sentence of the sources found shares a word with the question, so none is quoted: they do not '
          + 'seem to cover it.', sources: [{ number: 1, document_id: 'd1', title: 'Borrowing', uri: 'file:///b.md',
          knowledge_base: 'default', passages: [], figures: [] }] };
      if (answerSources) Object.assign(answer, { answer: 'Marie Curie worked at the Radium Institute [1].', note: null,
        sources: answerSources });
      if (answerWarnings) Object.assign(answer, { warnings: answerWarnings });
      return new Response(`event: answer\ndata: ${JSON.stringify(answer)}\n\n`,
        { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/knowledge-bases' && request.method === 'GET') {
      return json({ knowledge_bases: kbNames.map(kbRow) });
    }
    if (url.pathname === '/v1/documents' && request.method === 'GET') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return json({ documents: offset > 0 ? [{ ...docs[0], id: 'd-later', title: 'Later notes' }] : docs, offset,
        limit: 200, total: docTotal ?? docs.length });
    }
    const one = docs.find((d) => url.pathname === `/v1/documents/${d.id}`);
    if (one && request.method === 'DELETE') return new Response(null, { status: 204 });
    if (one && request.method === 'GET') {
      return json({ document: one, stores: { vector: { expected: 2, held: 2, state: 'complete' } } });
    }
    if (url.pathname === '/v1/knowledge-bases/coast/judgments' && request.method === 'GET') {
      return json({ knowledge_base: 'coast', queries: 0, judgments: [] });
    }
    if (url.pathname === '/v1/knowledge-bases/coast' && request.method === 'DELETE') {
      requests[requests.length - 1].body = url.search;
      return url.searchParams.get('force') === 'true' ? new Response(null, { status: 204 })
        : json({ title: 'Conflict', status: 409, detail: "knowledge base 'coast' is fed by sync source shore: delete "
          + 'it first (DELETE /v1/sync/sources/{id}), or delete with force=true to delete it too' }, 409);
    }
    if (url.pathname === '/v1/documents/d1/figures/1') {
      return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } });
    }
    if (url.pathname === '/v1/ingest/upload') {
      const n = ++uploads;
      if (uploadGate) await uploadGate;
      if (firstTooLarge && n === 1) {
        return json({ title: 'Content Too Large', status: 413, detail: 'the request is larger than 1000 bytes '
          + '(POLYRAG_HTTP_MAX_REQUEST_MB)' }, 413);
      }
      if (uploadStatus === 413) {
        return json({ title: 'Content Too Large', status: 413, detail: 'stored_mb: the tenant holds 100 of its 100 MB'
          }, 413);
      }
      return json({ accepted: [{ id: `staged-${n}`, name: `file-${n}.txt`, media_type: 'text/plain', size: 5 }],
        skipped: [] }, 201);
    }
    if (url.pathname === '/v1/ingest/staged') return json({ job_id: 'job-up-1', location: '/v1/jobs/job-up-1' }, 202);
    if (url.pathname.startsWith('/v1/ingest/staged/')) return new Response(null, { status: 204 });
    return json({ title: 'Not Found', status: 404, detail: `no route ${url.pathname}` }, 404);
  }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the app', () => {
  it('shows the figures that come with a hit, fetched with the key', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:figure-1');
    URL.revokeObjectURL = vi.fn();
    keysRequired = true;
    sessionStorage.setItem('polyrag.apiKey', 'good-key');
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    await user.type(screen.getByLabelText('Query'), 'radium chart');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const img = await screen.findByRole('img', { name: 'Figure 1: Radium output by year' }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:figure-1');
    expect(screen.getByText('Figure 1: Radium output by year')).toBeTruthy();
    const fetched = requests.find((r) => r.url === '/v1/documents/d1/figures/1');
    expect(fetched?.auth).toBe('Bearer good-key');
    sessionStorage.clear();
  });

  it('keeps typed input, results and the chat draft across tab switches', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    await user.type(screen.getByLabelText('Query'), 'radium');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('page 2')).toBeTruthy();
    const body = JSON.parse(requests.find((r) => r.url === '/v1/search')!.body);
    // Top-k left to the server (search.top.k) unless typed.
    expect(body).toMatchObject({ query: 'radium', top_k: null });

    await user.click(screen.getByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'half a thought');
    await user.click(screen.getByRole('tab', { name: 'Sources' }));
    await user.click(screen.getByLabelText(/A folder on the server/));
    await user.type(screen.getByLabelText('Folder on the server'), '/srv/docs');

    await user.click(screen.getByRole('tab', { name: 'Search' }));
    expect((screen.getByLabelText('Query') as HTMLInputElement).value).toBe('radium');
    expect(screen.getByText('page 2')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Chat' }));
    expect((screen.getByLabelText('Your question') as HTMLTextAreaElement).value).toBe('half a thought');
    await user.click(screen.getByRole('tab', { name: 'Sources' }));
    expect((screen.getByLabelText('Folder on the server') as HTMLInputElement).value).toBe('/srv/docs');
  });

  it('says why an answer is empty instead of showing nothing', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When is salary paid?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/shares a word with the question/)).toBeTruthy();
    expect(screen.getByRole('button', { name: '[1] Borrowing' })).toBeTruthy();
  });

  it('shows what the search behind an answer warned of', async () => {
    answerWarnings = ['reranker llm:fake failed, fused order kept: the model timed out'];
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When is salary paid?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/fused order kept: the model timed out/)).toBeTruthy();
  });

  it('keeps the sources of an answer whose model failed, in chat and in search', async () => {
    modelDown = true;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When is high tide?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/the language model is down/)).toBeTruthy();
    expect(screen.getByRole('button', { name: '[1] Tide tables' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Search' }));
    await user.type(screen.getByLabelText('Query'), 'high tide');
    await user.click(screen.getByRole('radio', { name: /Answer/ }));
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByText(/the language model is down/)).toBeTruthy();
    expect(await screen.findByText(/Tide tables ·/)).toBeTruthy();
  });

  it('reopens a conversation the server keeps, and deletes it', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    const picker = screen.getByLabelText('Conversation') as HTMLSelectElement;
    await within(picker).findByRole('option', { name: 'When is high tide? (2)' });
    // Past the first page: older conversations on request, and then no more.
    await user.click(screen.getByRole('button', { name: 'Older conversations' }));
    await within(picker).findByRole('option', { name: 'The first question (1)' });
    expect(screen.queryByRole('button', { name: 'Older conversations' })).toBeNull();
    await user.selectOptions(picker, 'tides');
    expect(await screen.findByText('And low tide?')).toBeTruthy();
    expect(screen.getByText(/At 12:55\./)).toBeTruthy();
    await user.type(screen.getByLabelText('Your question'), 'And tomorrow?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/query')).toBe(true));
    expect(JSON.parse(requests.find((r) => r.url === '/v1/query')!.body).conversation_id).toBe('tides');
    await user.click(screen.getByRole('button', { name: 'Delete conversation' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/conversations/tides' && r.method === 'DELETE'))
      .toBe(true));
    expect(screen.queryByText('And low tide?')).toBeNull();
    expect(screen.queryByText(/HTTP 204/)).toBeNull();
  });

  it('keeps a conversation on screen when the server could not delete it', async () => {
    busyServer = true;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    const picker = screen.getByLabelText('Conversation') as HTMLSelectElement;
    await within(picker).findByRole('option', { name: 'When is high tide? (2)' });
    await user.selectOptions(picker, 'tides');
    expect(await screen.findByText('And low tide?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete conversation' }));
    expect(await screen.findByText(/every parser of this server is busy/)).toBeTruthy();
    expect(screen.getByText('And low tide?')).toBeTruthy();
  });

  it('lists the files of an upload the server refused as skipped, saying why', async () => {
    busyServer = true;
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['hello'], 'tides.txt', { type: 'text/plain' }));
    expect(await screen.findByText(/not sent: .*every parser of this server is busy/)).toBeTruthy();
    expect(screen.getByText(/tides\.txt/)).toBeTruthy();
  });

  it('says when a knowledge base holds more documents than shown, and shows more on request', async () => {
    docTotal = docs.length + 1;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
    await user.click(await screen.findByRole('button', { name: 'coast' }));
    expect(await screen.findByText(`Showing ${docs.length} of ${docs.length + 1} documents.`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('button', { name: 'Later notes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('takes one question at a time: while an answer streams, Send and Delete wait', async () => {
    hangQuery = true;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When is high tide?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/query')).toBe(true));
    await user.type(screen.getByLabelText('Your question'), 'And low tide?');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete conversation' }) as HTMLButtonElement).disabled).toBe(true);
    // A screen reader waits for the whole answer instead of reading each token as the transcript grows.
    expect(document.querySelector('.transcript')?.getAttribute('aria-busy')).toBe('true');
  });

  it('stops an answer being written: Stop, or New, hangs up, and the turn says it was stopped', async () => {
    hangQuery = true;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When is high tide?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    // Leaving the tab and coming back: the answer is still being written.
    await user.click(screen.getByRole('tab', { name: 'Search' }));
    await user.click(screen.getByRole('tab', { name: 'Chat' }));
    expect(screen.queryByText(/stopped: the rest/)).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.getByText(/stopped: the rest of the answer was not written/)).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(document.querySelector('.transcript')?.getAttribute('aria-busy')).toBe('false');
  });

  it('deletes a document without taking the server\'s empty 204 for a failure', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
    await user.click(await screen.findByRole('button', { name: 'coast' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Pasted notes' }));
    // Asked first: one click next to Download deleted it from every store.
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Pasted notes' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete Pasted notes' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.url.startsWith('/v1/documents/')))
      .toBe(true));
    await waitFor(() => expect(requests.filter((r) => r.url === '/v1/documents' && r.method === 'GET').length)
      .toBeGreaterThan(1));
    expect(screen.queryByText(/HTTP 204/)).toBeNull();
  });

  it('limits search and chat to the chosen knowledge bases, and remembers them across a reload', async () => {
    kbNames = ['coast', 'harbour', 'delta'];
    const user = userEvent.setup();
    const first = render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    await user.click(screen.getByText('All knowledge bases'));
    const searchKbs = screen.getByRole('group', { name: 'Knowledge bases to search' });
    await user.click(await within(searchKbs).findByRole('checkbox', { name: 'coast' }));
    await user.click(within(searchKbs).getByRole('checkbox', { name: 'harbour' }));
    expect(screen.getByText('2 knowledge bases')).toBeTruthy();
    await user.type(screen.getByLabelText('Query'), 'radium');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('page 2');
    expect(JSON.parse(requests.find((r) => r.url === '/v1/search')!.body).kb).toEqual(['coast', 'harbour']);
    expect(JSON.parse(localStorage.getItem('polyrag.knowledgeBases')!)).toEqual(['coast', 'harbour']);

    // Chat shares the selection: narrowing it there narrows the question and what is remembered.
    await user.click(screen.getByRole('tab', { name: 'Chat' }));
    await user.click(screen.getByText('2 knowledge bases'));
    const chatKbs = screen.getByRole('group', { name: 'Knowledge bases to ask' });
    await user.click(await within(chatKbs).findByRole('checkbox', { name: 'harbour' }));
    expect(screen.getByText('Knowledge base: coast')).toBeTruthy();
    await user.type(screen.getByLabelText('Your question'), 'When is high tide?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/query')).toBe(true));
    const opening = JSON.parse(requests.find((r) => r.url === '/v1/query')!.body);
    expect(opening).toMatchObject({ kb: ['coast'], stream: true, top_k: null, neighbours: null });
    expect(opening.conversation_id).toMatch(/^chat-/);
    // The next question is the next turn of the same kept conversation: a follow-up leans on it.
    await user.type(screen.getByLabelText('Your question'), 'And tomorrow?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests.filter((r) => r.url === '/v1/query')).toHaveLength(2));
    const followUp = JSON.parse(requests.filter((r) => r.url === '/v1/query')[1].body);
    expect(followUp.query).toBe('And tomorrow?');
    expect(followUp.conversation_id).toBe(opening.conversation_id);
    // A new conversation starts an empty transcript and another id.
    await user.click(screen.getByRole('button', { name: 'New' }));
    expect(screen.queryByText('And tomorrow?')).toBeNull();

    first.unmount();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    await user.click(screen.getByText('Knowledge base: coast'));
    const again = screen.getByRole('group', { name: 'Knowledge bases to search' });
    expect((await within(again).findByRole('checkbox', { name: 'coast' }) as HTMLInputElement).checked).toBe(true);
    expect((within(again).getByRole('checkbox', { name: 'harbour' }) as HTMLInputElement).checked).toBe(false);
  });

  it('shows how much of an upload went, and Cancel stops it before the server staged anything', async () => {
    let release: () => void = () => {};
    sendGate = new Promise((r) => { release = r; });
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['x'.repeat(2048)], 'big.pdf',
      { type: 'application/pdf' }));
    expect(await screen.findByText(/1\.0 KB of 2\.0 KB \(50%\)/)).toBeTruthy();
    expect(document.querySelector('progress')?.getAttribute('value')).toBe('1024');
    // One announcement per phase, not one per progress event.
    expect(screen.getAllByRole('status').map((e) => e.textContent)).toContain('Sending files…');
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText(/Upload canceled/)).toBeTruthy();
    release();
    await new Promise((r) => setTimeout(r, 50));
    // Aborted mid-body: nothing reached the server, nothing to delete, no verdict, and the files may be chosen again.
    expect(requests.filter((r) => r.url === '/v1/ingest/upload' || r.method === 'DELETE')).toEqual([]);
    expect(screen.queryByText('Staging verdict')).toBeNull();
    expect((screen.getByLabelText('Files') as HTMLInputElement).disabled).toBe(false);
  });

  it('shows an upload still going after leaving the tab and coming back, and Cancel still stops it', async () => {
    let release: () => void = () => {};
    sendGate = new Promise((r) => { release = r; });
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['x'.repeat(2048)], 'big.pdf',
      { type: 'application/pdf' }));
    expect(await screen.findByText(/\(50%\)/)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Search' }));
    await user.click(screen.getByRole('tab', { name: 'Sources' }));
    // Drawn again: the progress and Cancel of the request still going, not an idle form.
    expect(await screen.findByText(/\(50%\)/)).toBeTruthy();
    expect((screen.getByLabelText('Files') as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText(/Upload canceled/)).toBeTruthy();
    release();
    await new Promise((r) => setTimeout(r, 50));
    expect(requests.filter((r) => r.url === '/v1/ingest/upload')).toEqual([]);
  });

  it('stops sending a choice once the server refuses it for its quota, listing the rest as not sent', async () => {
    uploadStatus = 413;
    const user = userEvent.setup();
    render(<App />);
    // The test server takes 1,000 bytes a request: three files of 600 are three requests.
    await user.upload(await screen.findByLabelText('Files'), ['a', 'b', 'c'].map((n) => new File(['x'.repeat(600)],
      `${n}.txt`, { type: 'text/plain' })));
    expect(await screen.findByText('Staging verdict')).toBeTruthy();
    expect(requests.filter((r) => r.url === '/v1/ingest/upload')).toHaveLength(1);
    expect(screen.getAllByText(/not sent: stored_mb/)).toHaveLength(3);
  });

  it('goes on with the rest of a choice when one file alone is over the request limit', async () => {
    firstTooLarge = true;
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), [new File(['x'.repeat(2000)], 'video.mp4',
      { type: 'video/mp4' }), new File(['hello'], 'a.txt', { type: 'text/plain' })]);
    expect(await screen.findByText('Staging verdict')).toBeTruthy();
    expect(requests.filter((r) => r.url === '/v1/ingest/upload')).toHaveLength(2);
    expect(screen.getByText(/not sent: the request is larger/)).toBeTruthy();
    expect(screen.getByText('file-2.txt')).toBeTruthy();
  });

  it('deletes what the last key staged, with that key, when the key changes', async () => {
    keysRequired = true;
    sessionStorage.setItem('polyrag.apiKey', 'good-key');
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-1.txt')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Forget key' }));
    // The verdict went with the key; its file, held a day against that tenant's storage, is deleted as that tenant.
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => [r.url, r.auth]))
      .toEqual([['/v1/ingest/staged/staged-1', 'Bearer good-key']]));
  });

  it('deletes what the server staged when Cancel comes after every byte went (while it checks them)', async () => {
    let release: () => void = () => {};
    uploadGate = new Promise((r) => { release = r; });
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/ingest/upload')).toBe(true));
    expect(screen.getByText(/Checking files/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    release();
    // Let answer rather than aborted, so what it staged is known: deleted, not held against the quota for a day.
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url))
      .toEqual(['/v1/ingest/staged/staged-1']));
    expect(screen.queryByText('file-1.txt')).toBeNull();
    expect(screen.getByText(/Upload canceled/)).toBeTruthy();
  });

  it('deletes the files of a check dropped while it ran (another knowledge base typed meanwhile)', async () => {
    let release: () => void = () => {};
    uploadGate = new Promise((r) => { release = r; });
    const user = userEvent.setup();
    render(<App />);
    await user.type(await screen.findByLabelText('Knowledge base'), 'docs');
    await user.upload(screen.getByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/ingest/upload')).toBe(true));
    await user.type(screen.getByLabelText('Knowledge base'), 'x');
    release();
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url))
      .toEqual(['/v1/ingest/staged/staged-1']));
    expect(screen.queryByText('file-1.txt')).toBeNull();
  });

  it('keeps the files a configured run will ingest when the live form is edited after Configure', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.type(await screen.findByLabelText('Knowledge base'), 'docs');
    await user.upload(screen.getByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-1.txt')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Configure processing' }));
    await user.click(await screen.findByRole('tab', { name: 'Sources' }));
    await user.type(screen.getByLabelText('Knowledge base'), 'x');
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('tab', { name: /Processing/ }));
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/ingest/staged')).toBe(true));
  });

  it('deletes the files of a configured upload that is replaced by another, or discarded', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-1.txt')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Configure processing' }));
    await user.click(await screen.findByRole('tab', { name: 'Sources' }));
    // Another choice, configured in its place: the first upload is referenced nowhere now.
    await user.upload(screen.getByLabelText('Files'), new File(['other'], 'b.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-2.txt')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Configure processing' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url))
      .toEqual(['/v1/ingest/staged/staged-1']));
    // Discarded while the live form still shows the second choice: its file stays (Configure may take it again).
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(['/v1/ingest/staged/staged-1']);
  });

  it('checks chosen files for the knowledge base typed, and forgets the verdict when it changes', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.type(await screen.findByLabelText('Knowledge base'), 'docs');
    await user.upload(screen.getByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-1.txt')).toBeTruthy();
    const configure = () => screen.getByRole('button', { name: 'Configure processing' }) as HTMLButtonElement;
    expect(configure().disabled).toBe(false);
    // Another knowledge base: the files were checked against what docs holds; they are chosen again for the new one.
    await user.clear(screen.getByLabelText('Knowledge base'));
    await user.type(screen.getByLabelText('Knowledge base'), 'notes');
    expect(screen.queryByText('file-1.txt')).toBeNull();
    expect(configure().disabled).toBe(true);
    await user.upload(screen.getByLabelText('Files'), new File(['hello'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-2.txt')).toBeTruthy();
    expect(requests.filter((r) => r.url === '/v1/ingest/upload')[1].body).toContain('notes');
    // The dropped verdict's file is deleted on the server, where it counted against the tenant's storage.
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(['/v1/ingest/staged/staged-1']);
    await user.click(configure());
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/ingest/staged')).toBe(true));
    // The figures left to the server (figures.extract) unless chosen.
    expect(JSON.parse(requests.find((r) => r.url === '/v1/ingest/staged')!.body)).toEqual({ ids: ['staged-2'],
      kb: 'notes', skip_graph: false, figures: null });
  });

  it('drops the last verdict while newly chosen files are checked', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.upload(await screen.findByLabelText('Files'), new File(['a'], 'a.txt', { type: 'text/plain' }));
    expect(await screen.findByText('file-1.txt')).toBeTruthy();
    let release!: () => void;
    uploadGate = new Promise((r) => { release = r; });
    await user.upload(screen.getByLabelText('Files'), new File(['b'], 'b.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Checking files…')).toBeTruthy();
    expect(screen.queryByText('file-1.txt')).toBeNull();
    expect((screen.getByRole('button', { name: 'Configure processing' }) as HTMLButtonElement).disabled).toBe(true);
    release();
    expect(await screen.findByText('file-2.txt')).toBeTruthy();
  });

  it('shows the conversation picked last when an earlier pick answers after it', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    let release!: () => void;
    tidesGate = new Promise((r) => { release = r; });
    const picker = screen.getByLabelText('Conversation') as HTMLSelectElement;
    await within(picker).findByRole('option', { name: 'When is high tide? (2)' });
    await user.selectOptions(picker, 'tides');
    await user.selectOptions(picker, 'c0');
    expect(await screen.findByText(/Answer 0\./)).toBeTruthy();
    release();
    await waitFor(() => expect(requests.filter((r) => r.url === '/v1/conversations/tides')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('And low tide?')).toBeNull();
    expect(screen.getByText(/Answer 0\./)).toBeTruthy();
  });

  it('drops remembered knowledge bases that no longer exist, and sends no kb when none is chosen', async () => {
    localStorage.setItem('polyrag.knowledgeBases', JSON.stringify(['gone', 'coast']));
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    expect(await screen.findByText('Knowledge base: coast')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem('polyrag.knowledgeBases')).toBe('["coast"]'));
    await user.type(screen.getByLabelText('Query'), 'radium');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('page 2');
    expect(JSON.parse(requests.find((r) => r.url === '/v1/search')!.body).kb).toEqual(['coast']);

    await user.click(screen.getByText('Knowledge base: coast'));
    await user.click(screen.getByRole('button', { name: 'Use all knowledge bases' }));
    expect(screen.getByText('All knowledge bases')).toBeTruthy();
    expect(localStorage.getItem('polyrag.knowledgeBases')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(requests.filter((r) => r.url === '/v1/search')).toHaveLength(2));
    expect(JSON.parse(requests.filter((r) => r.url === '/v1/search')[1].body)).not.toHaveProperty('kb');
  });

  it('shows one Quality panel, the chosen knowledge base\'s, after switching between knowledge bases', async () => {
    kbNames = ['coast', 'harbour'];
    const user = userEvent.setup();
    const { container } = render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
    await user.click(await screen.findByRole('button', { name: 'coast' }));
    expect(await screen.findByText('Quality of coast')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'harbour' }));
    expect(await screen.findByText('Quality of harbour')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'coast' }));
    await screen.findByText('Quality of coast');
    expect(container.querySelectorAll('section.quality')).toHaveLength(1);
    expect(screen.queryByText('Quality of harbour')).toBeNull();
  });

  it('says an answer whose stream closed before it finished was cut, not that it is the answer', async () => {
    cutQuery = true;
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'When does the tide turn?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/stopped before it finished/)).toBeTruthy();
  });

  it('offers Download only for documents that keep their original, and says why the others do not', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
    await user.click(await screen.findByRole('button', { name: 'coast' }));
    const uploaded = (await screen.findByRole('button', { name: 'Tides.pdf' })).closest('tr')!;
    const pasted = screen.getByRole('button', { name: 'Pasted notes' }).closest('tr')!;
    expect(within(uploaded).getByRole('button', { name: 'Download Tides.pdf' })).toBeTruthy();
    expect(within(pasted).queryByRole('button', { name: /Download/ })).toBeNull();
    expect(within(pasted).getByRole('button', { name: 'Delete Pasted notes' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Pasted notes' }));
    expect(await screen.findByText(/not kept: indexed from text, a path or a folder/)).toBeTruthy();
    expect(screen.getByText('original')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Tides.pdf' }));
    expect(await screen.findByText('media type')).toBeTruthy();
    expect(screen.queryByText('original')).toBeNull();
    expect(screen.queryByText(/not kept/)).toBeNull();
  });

  it('offers the graph explorer on a server whose RDF store is on and graph off', () => {
    // The explorer is read from the RDF store when the graph is off: the tab said "The graph is off".
    expect(explorerOn(['fulltext', 'rdf'])).toBe(true);
    expect(explorerOn(['graph'])).toBe(true);
    expect(explorerOn(['fulltext', 'vector'])).toBe(false);
  });

  it('moves between tabs with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<App />);
    const sources = await screen.findByRole('tab', { name: 'Sources' });
    sources.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Processing' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Processing' }));
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Graph' }).getAttribute('aria-selected')).toBe('true');
  });

  it('offers to delete a knowledge base with the sync sources that feed it when a plain delete is refused',
    async () => {
      const user = userEvent.setup();
      render(<App />);
      await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
      await user.click(await screen.findByRole('button', { name: 'Delete…' }));
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      expect((await screen.findByRole('alert')).textContent).toContain('fed by sync source shore');
      await user.click(screen.getByRole('button', { name: 'Delete with its sync sources' }));
      await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.body))
        .toEqual(['', '?force=true']));
      // The 204 is a success: no error left on screen.
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    });

  it('shows a knowledge base\'s quality above its documents: judged queries, evaluation, Tune', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Knowledge bases' }));
    await user.click(await screen.findByRole('button', { name: 'coast' }));
    const quality = await screen.findByRole('region', { name: 'Quality of coast' });
    expect(await within(quality).findByText('0 judged queries')).toBeTruthy();
    expect(within(quality).getByText('Not evaluated yet: add judged queries first.')).toBeTruthy();
    expect((within(quality).getByRole('button', { name: 'Tune' }) as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByRole('button', { name: 'Tides.pdf' })).toBeTruthy();
    // Nothing to evaluate or tune: neither is asked (a 404 would show in the browser's console).
    expect(requests.some((r) => /evaluation|tuning/.test(r.url))).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a fresh install the way to its first source', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Processing' }));
    expect(screen.getByText(/Add your first source/)).toBeTruthy();
  });

  it('on a server with keys asks for one before calling the API, then sends it', async () => {
    keysRequired = true;
    const user = userEvent.setup();
    render(<App />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent',
      expect.stringContaining('needs a valid API key'));
    expect(requests.filter((r) => r.url.startsWith('/v1/'))).toEqual([]);
    await user.type(screen.getByLabelText('API key'), 'good-key');
    await user.click(screen.getByRole('button', { name: 'Use key' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/configuration' && r.auth === 'Bearer good-key'))
      .toBe(true));
    expect(sessionStorage.getItem('polyrag.apiKey')).toBe('good-key');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for a key when keys were created after the tab opened in local mode', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    expect(screen.getByText(/No API key needed/)).toBeTruthy();
    keysRequired = true;
    await user.type(screen.getByLabelText('Query'), 'radium');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The key was refused'));
    expect(screen.getByLabelText('API key')).toBeTruthy();
    expect(screen.queryByText(/No API key needed/)).toBeNull();
  });

  it('renders, with a key prompt, where the browser blocks the site\'s storage', async () => {
    keysRequired = true;
    const blocked = vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      render(<App />);
      expect(await screen.findByLabelText('API key')).toBeTruthy();
    } finally {
      blocked.mockRestore();
    }
  });

  it('shows the 401 state when the key is refused', async () => {
    keysRequired = true;
    sessionStorage.setItem('polyrag.apiKey', 'stale-key');
    render(<App />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The key was refused'));
    expect(screen.getByLabelText('API key')).toBeTruthy();
  });
});

describe('sync sources', () => {
  it('lists each source: what it reads, where to, how often, its state, last scan, error and items', async () => {
    render(<App />);
    const table = await screen.findByRole('table', { name: 'Sync sources' });
    const handbook = (await within(table).findByRole('rowheader', { name: /handbook/ })).closest('tr')!;
    expect(handbook.textContent).toContain('folder on the server');
    expect(handbook.textContent).toContain('/srv/handbook');
    expect(handbook.textContent).toContain('coast');
    expect(handbook.textContent).toContain('5 min');
    expect(handbook.textContent).toContain('active');
    expect(within(handbook).getByText('3 min ago').getAttribute('title')).toBeTruthy();
    expect(within(handbook).getByRole('button', { name: 'Pause handbook' })).toBeTruthy();
    const site = within(table).getByRole('rowheader', { name: /docs-site/ }).closest('tr')!;
    expect(site.textContent).toContain('web site');
    expect(site.textContent).toContain('https://docs.example.com/guide/ (below /guide/)');
    expect(site.textContent).toContain('1 h');
    expect(site.textContent).toContain('paused');
    expect(site.textContent).toContain('connection refused');
    expect(within(site).getByRole('button', { name: 'Resume docs-site' })).toBeTruthy();
  });

  it('pauses, resumes and syncs a source now, reading the list again after each, and shows the sync on Processing',
    async () => {
      const user = userEvent.setup();
      render(<App />);
      await user.click(await screen.findByRole('button', { name: 'Pause handbook' }));
      expect(await screen.findByRole('button', { name: 'Resume handbook' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('Paused handbook.');
      expect(requests.filter((r) => r.method === 'POST').map((r) => r.url))
        .toEqual(['/v1/sync/sources/handbook/disable']);

      await user.click(screen.getByRole('button', { name: 'Resume handbook' }));
      expect(await screen.findByRole('button', { name: 'Pause handbook' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toContain('a sync started');

      await user.click(screen.getByRole('button', { name: 'Sync handbook now' }));
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe(
        'Syncing handbook now: a sync started, see Processing.'));
      expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
        '/v1/sync/sources/handbook/disable', '/v1/sync/sources/handbook/enable', '/v1/sync/sources/handbook/sync-now']);
      // The list was read on opening and once after each action.
      expect(requests.filter((r) => r.url === '/v1/sync/sources').length).toBeGreaterThanOrEqual(4);

      await user.click(screen.getByRole('tab', { name: /Processing/ }));
      expect(screen.getAllByText('sync of handbook')).toHaveLength(2);
    });

  it('offers a sync that deletes what a source no longer lists only where the source said it held back', async () => {
    sources[0].last_error = 'the source no longer lists 11 of its 13 items, more than 50%: nothing was deleted (…); if '
      + 'they are gone for good, sync once allowing it (sync-now with max_delete_percent=100), or delete the source';
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Sync handbook, deleting what it no longer lists…' }));
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0); // asked first
    await user.click(screen.getByRole('button', { name: 'Keep them' }));
    expect(screen.queryByRole('group', { name: 'Sync handbook, deleting' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sync handbook, deleting what it no longer lists…' }));
    await user.click(screen.getByRole('button', { name: 'Sync and delete them' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(
      'Syncing handbook now, deleting what it no longer lists: a sync started, see Processing.'));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url + r.search))
      .toEqual(['/v1/sync/sources/handbook/sync-now?max_delete_percent=100']);
    // The other source's error is not the guard's: no such button.
    expect(screen.queryByRole('button', { name: /Sync docs-site, deleting/ })).toBeNull();
  });

  it('lists a source once it is added', async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByRole('rowheader', { name: /handbook/ });
    await user.click(screen.getByLabelText(/A folder on the server/));
    await user.type(screen.getByLabelText('Source id'), 'wiki');
    await user.type(screen.getByLabelText('Folder on the server'), '/srv/wiki');
    await user.click(screen.getByRole('button', { name: 'Configure processing' }));
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/sync/sources' && r.method === 'POST')).toBe(true));
    await user.click(screen.getByRole('tab', { name: /Sources/ }));
    const wiki = (await screen.findByRole('rowheader', { name: /wiki/ })).closest('tr')!;
    expect(wiki.textContent).toContain('/srv/wiki');
    expect(wiki.textContent).toContain('never');
  });

  it('adds an S3 bucket: its settings and secret go to the server, the secret only there', async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByRole('rowheader', { name: /handbook/ });
    await user.click(screen.getByLabelText(/An S3 bucket/));
    await user.type(screen.getByLabelText('Source id'), 'bucket-docs');
    await user.type(screen.getByLabelText('Bucket'), 'Team_Docs');
    expect(screen.getByText(/a bucket name: 3-63/)).toBeTruthy();
    await user.clear(screen.getByLabelText('Bucket'));
    await user.type(screen.getByLabelText('Bucket'), 'team-docs');
    await user.type(screen.getByLabelText('Key prefix'), 'handbook/');
    await user.type(screen.getByLabelText('Endpoint'), 'https://minio.example.com:9000');
    await user.type(screen.getByLabelText('Access key id'), 'AKIA1');
    expect((screen.getByRole('button', { name: 'Configure processing' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Secret access key'), 's3cret');
    expect((screen.getByLabelText('Secret access key') as HTMLInputElement).type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Configure processing' }));
    expect(screen.getByText(/bucket s3:\/\/team-docs\/handbook\/ as "bucket-docs"/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('s3cret');
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/v1/sync/sources' && r.method === 'POST')).toBe(true));
    const post = requests.find((r) => r.url === '/v1/sync/sources' && r.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ source_id: 'bucket-docs', type: 's3', kb: null, interval_seconds: 3600,
      enabled: true, config: { bucket: 'team-docs', prefix: 'handbook/', endpoint: 'https://minio.example.com:9000',
        region: 'us-east-1', access_key_id: 'AKIA1', secret_access_key: 's3cret', include: [], exclude: [],
        skip_graph: false } });
  });

  it('edits an S3 source, keeping its hidden secret unless a new one is typed', async () => {
    sources.push(syncSource('bucket', 's3', { bucket: 'team-docs', prefix: 'guides/', endpoint: '',
      region: 'us-east-1', path_style: false, access_key_id: 'AKIA1', secret_access_key: '********', include: [],
      exclude: [], skip_graph: false }));
    const user = userEvent.setup();
    render(<App />);
    const row = (await screen.findByRole('rowheader', { name: /bucket/ })).closest('tr')!;
    expect(row.textContent).toContain('S3 bucket');
    expect(row.textContent).toContain('s3://team-docs/guides/');
    await user.click(screen.getByRole('button', { name: 'Edit bucket' }));
    const form = screen.getByRole('form', { name: 'Edit bucket' });
    const prefix = within(form).getByLabelText('Key prefix');
    await user.clear(prefix);
    await user.type(prefix, 'manuals/');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = JSON.parse(requests.find((r) => r.method === 'PUT')!.body);
    expect(put.config).toEqual({ bucket: 'team-docs', prefix: 'manuals/', endpoint: '', region: 'us-east-1',
      path_style: false, access_key_id: 'AKIA1', secret_access_key: '********', include: [], exclude: [],
      skip_graph: false });
  });

  it('shows the server\'s problem detail when an action is refused', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Sync docs-site now' }));
    expect((await screen.findByRole('alert')).textContent).toBe("source 'docs-site' is disabled: enable it first");
  });

  it('edits a source with its whole settings, keeping what the form does not show', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Edit handbook' }));
    const form = screen.getByRole('form', { name: 'Edit handbook' });
    expect((within(form).getByLabelText('Folder on the server') as HTMLInputElement).value).toBe('/srv/handbook');
    expect(within(form).getByText(/cannot move to another one/)).toBeTruthy();
    const interval = within(form).getByLabelText('Seconds between scans');
    await user.clear(interval);
    await user.type(interval, '10');
    expect((within(form).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(form).getByText(/a whole number from 30/)).toBeTruthy();
    await user.type(interval, '0');
    await user.type(within(form).getByLabelText('Exclude globs'), '**/drafts/**');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit handbook' })).toBeNull());
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/v1/sync/sources/handbook');
    expect(JSON.parse(put.body)).toEqual({ source_id: 'handbook', type: 'filesystem', kb: 'coast',
      interval_seconds: 100, enabled: true, config: { root: '/srv/handbook', include: ['**/*.md'],
        exclude: ['**/drafts/**'], follow_symlinks: true, skip_graph: false } });
    expect(await screen.findByText('2 min')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Saved handbook');
  });

  it('deletes a source after a confirmation, with its documents only when asked', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Delete docs-site…' }));
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete handbook…' }));
    await user.click(screen.getByLabelText(/Also delete the 4 documents it indexed/));
    await user.click(screen.getByRole('button', { name: 'Delete with its documents' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /handbook/ })).toBeNull());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => [r.url, r.body]))
      .toEqual([['/v1/sync/sources/handbook', '?documents=true']]);
    expect(screen.getByRole('status').textContent).toBe('Deleted handbook and its 4 documents.');

    await user.click(screen.getByRole('button', { name: 'Delete docs-site…' }));
    await user.click(screen.getByRole('button', { name: 'Delete, keep its documents' }));
    expect(await screen.findByText(/No folders, web sites or buckets are kept in sync yet/)).toBeTruthy();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.body)).toEqual(['?documents=true', '']);
  });
});

describe('processing rows', () => {
  const wireJob = (more: Record<string, unknown>) => ({ id: 'fd0f9c47-1', kind: 'sync', status: 'running',
    error: null, attempts: 1, created_at: minutesAgo(3), updated_at: minutesAgo(0), percentage: 0,
    eta_seconds: null, progress: { stage: 'scanning', total: 0, processed: 0, added: 0, updated: 0, unchanged: 0,
      deleted: 0, failed: 0, errors: [] }, knowledge_base: 'coast', source_id: 'handbook', started_at: minutesAgo(2),
    ...more });

  it('say what a job is, where it writes, when it started, and how long it has run before an ETA is known',
    async () => {
      jobList = [wireJob({}), wireJob({ id: 'up-2', kind: 'ingest-upload', source_id: null, status: 'succeeded',
        percentage: 100, started_at: minutesAgo(10), updated_at: new Date(Date.parse(minutesAgo(10)) + 42_000)
          .toISOString() }), wireJob({ id: 're-3', kind: 'reindex', knowledge_base: null, source_id: null,
        eta_seconds: 90, percentage: 40 })];
      const user = userEvent.setup();
      render(<App />);
      await user.click(await screen.findByRole('tab', { name: /Processing/ }));
      const rows = (await screen.findAllByRole('row')).slice(1);
      expect(rows).toHaveLength(3);
      expect(rows[0].textContent).toContain('sync of handbook');
      expect(rows[0].textContent).toContain('into coast');
      const started = within(rows[0]).getByText(/started 2 min ago/);
      expect(started.getAttribute('title')).toBe(new Date(jobList[0] ? (jobList[0] as { started_at: string })
        .started_at : '').toLocaleString());
      expect(within(rows[0]).getByText(/^running 2 min$/)).toBeTruthy();
      expect(rows[0].textContent).not.toContain('—');

      expect(rows[1].textContent).toContain('upload');
      expect(rows[1].textContent).toContain('took 42 s');
      expect(rows[2].textContent).toContain('reindex');
      expect(rows[2].textContent).not.toContain('into');
      expect(rows[2].textContent).toContain('about 2 min left');
    });
});

describe('the key box', () => {
  it('says local mode only when the server reports no keys', async () => {
    render(<App />);
    expect(await screen.findByText(/No API key needed/)).toBeTruthy();
    expect(screen.queryByLabelText('API key')).toBeNull();
  });

  it('says a key is required where the server requires one', async () => {
    keysRequired = true;
    render(<App />);
    // the box shows before the server's status arrives; its "required" marker comes with the status
    expect(await screen.findByText('required')).toBeTruthy();
    expect(screen.getByLabelText('API key').getAttribute('placeholder')).toBe('API key required');
    expect(screen.queryByText(/local mode/)).toBeNull();
  });
});

describe('the theme', () => {
  const stubSystem = (dark: boolean) => vi.stubGlobal('matchMedia', vi.fn((q: string) => ({ matches: dark && q
    .includes('dark'), media: q, addEventListener: vi.fn(), removeEventListener: vi.fn() })));
  afterEach(() => { delete document.documentElement.dataset.theme; });

  it('follows the system by default, and a choice in the header is applied and remembered', async () => {
    stubSystem(true);
    const user = userEvent.setup();
    const first = render(<App />);
    const picker = await screen.findByLabelText('Theme') as HTMLSelectElement;
    expect(picker.value).toBe('system');
    expect(document.documentElement.dataset.theme).toBe('dark');
    await user.selectOptions(picker, 'Light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('polyrag.theme')).toBe('light');
    first.unmount();

    render(<App />);
    expect((screen.getByLabelText('Theme') as HTMLSelectElement).value).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    await user.selectOptions(screen.getByLabelText('Theme'), 'System');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('polyrag.theme')).toBeNull();
  });
});

describe('a citation', () => {
  it('opens at the cited passage: scrolled into view and marked as the current one', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) { scrolled.push(this); });
    const passage = (ordinal: number, text: string, hit: boolean) => ({ chunk_id: `c${ordinal}`, ordinal,
      kind: 'prose', heading_path: [], text, hit, location: null });
    answerSources = [{ number: 1, document_id: 'd1', title: 'Curie', uri: 'file:///curie.md',
      knowledge_base: 'default', figures: [], passages: [passage(0, 'Marie Curie was born in Warsaw.', false),
        passage(1, 'Marie Curie worked at the Radium Institute in Paris.', true),
        passage(2, 'She studied radioactivity.', false)] }];
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Chat' }));
    await user.type(screen.getByLabelText('Your question'), 'Where does Marie Curie work?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(await screen.findByRole('button', { name: 'Open source 1' }));
    const aside = screen.getByRole('complementary', { name: 'Source 1' });
    const current = aside.querySelector('[aria-current="true"]')!;
    expect(current.textContent).toContain('Radium Institute');
    expect(current.textContent).toContain('cited passage');
    expect(current.classList.contains('hit')).toBe(true);
    expect(scrolled).toContain(current);
    // The question's words are marked in the passage, its stop words ("where", "does") not.
    expect([...current.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Marie', 'Curie', 'worked']);
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  });
});
