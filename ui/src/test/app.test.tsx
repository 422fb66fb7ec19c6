import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';

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

let requests: { url: string; method: string; auth: string | null; body: string }[] = [];
let keysRequired = false;
let kbNames = ['coast'];

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
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), location.origin), init);
    const url = new URL(request.url);
    const auth = request.headers.get('Authorization');
    requests.push({ url: url.pathname, method: request.method, auth, body: request.method === 'POST'
      ? await request.clone().text() : '' });
    if (url.pathname === '/health') return json({ status: 'ok', auth: keysRequired ? 'keys' : 'local' });
    if (keysRequired && auth !== 'Bearer good-key') {
      return json({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'a valid API key is required' },
        401);
    }
    if (url.pathname === '/v1/configuration') return json(config);
    if (url.pathname === '/v1/jobs') return json({ jobs: [], offset: 0, limit: 20 });
    if (url.pathname === '/v1/events') {
      return new Response(new ReadableStream({ start() { /* never ends, like the server's */ } }),
        { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/search') {
      return json({ query: 'q', took_ms: 3, modalities: ['vector'], degraded: [], warnings: [], fusion: 'rrf',
        hits: [request.method === 'POST' && (await request.clone().text()).includes('chart') ? { ...hit,
          figures: [figure] } : hit] });
    }
    if (url.pathname === '/v1/query') {
      const answer = { query: 'q', answer: '', mode: 'extractive', took_ms: 4, degraded: [], grounding: null,
        note: 'No sentence of the sources found shares a word with the question, so none is quoted: they do not '
          + 'seem to cover it.', sources: [{ number: 1, document_id: 'd1', title: 'Borrowing', uri: 'file:///b.md',
          knowledge_base: 'default', passages: [], figures: [] }] };
      return new Response(`event: answer\ndata: ${JSON.stringify(answer)}\n\n`,
        { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (url.pathname === '/v1/knowledge-bases' && request.method === 'GET') {
      return json({ knowledge_bases: kbNames.map(kbRow) });
    }
    if (url.pathname === '/v1/documents' && request.method === 'GET') {
      return json({ documents: docs, offset: 0, limit: 200, total: docs.length });
    }
    const one = docs.find((d) => url.pathname === `/v1/documents/${d.id}`);
    if (one && request.method === 'GET') {
      return json({ document: one, stores: { vector: { expected: 2, held: 2, state: 'complete' } } });
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
    expect(body).toMatchObject({ query: 'radium', top_k: 10 });

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
    expect(JSON.parse(requests.find((r) => r.url === '/v1/query')!.body)).toMatchObject({ kb: ['coast'],
      stream: true });

    first.unmount();
    render(<App />);
    await user.click(await screen.findByRole('tab', { name: 'Search' }));
    await user.click(screen.getByText('Knowledge base: coast'));
    const again = screen.getByRole('group', { name: 'Knowledge bases to search' });
    expect((await within(again).findByRole('checkbox', { name: 'coast' }) as HTMLInputElement).checked).toBe(true);
    expect((within(again).getByRole('checkbox', { name: 'harbour' }) as HTMLInputElement).checked).toBe(false);
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

  it('shows the 401 state when the key is refused', async () => {
    keysRequired = true;
    sessionStorage.setItem('polyrag.apiKey', 'stale-key');
    render(<App />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The key was refused'));
    expect(screen.getByLabelText('API key')).toBeTruthy();
  });
});
