import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useReducer } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KbEvaluationRun } from '../api/client';
import { initialState, reducer } from '../state';
import { fusionWords, MIN_JUDGED, pValue, Quality, runCells, signed, tuneBlocked } from '../tabs/Quality';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status,
  headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' } });
const problem = (status: number, detail: string) => json({ type: 'about:blank', title: 'Bad Request', status, detail },
  status);

const run = (name: string, more: Partial<KbEvaluationRun> = {}): KbEvaluationRun => ({ name,
  description: `the ${name} search`, ndcg10: 0.5123, recall100: 0.8766, mrr10: 0.6012, ndcg10_ci95: [0.4711, 0.5532],
  vs_configured: null, per_query_ndcg: {}, ...more });
const evaluation = { knowledge_base: 'coast', queries: 25, documents: 120, evaluated_at: new Date().toISOString(),
  runs: [run('configured'), run('vector', { ndcg10: 0.401, vs_configured: { run: 'configured', delta: -0.1113,
    ci95: [-0.2, -0.05], p: 0.0004 } })] };
const tuning = { applied: true, fusion: 'weighted', weights: { fulltext: 0.7, vector: 0.30000000000000004 },
  rrf_k: null, queries: 25, folds: 5, ndcg10_configured: 0.5, ndcg10_tuned: 0.55, delta: 0.05, p: 0.012,
  reason: 'The weighted fusion beat the configured one on held-out folds.', documents: 120,
  tuned_at: new Date().toISOString(), candidates: [{ name: 'configured', ndcg10: 0.5 }] };

let requests: { path: string; method: string; search: string; type: string; body: string }[] = [];
let judgedCount = 0;
let last: unknown = null;
let tuned: unknown = null;
let nextEvaluation: Promise<Response> | null = null;
let uploadRefusal = '';

beforeEach(() => {
  requests = [];
  judgedCount = 5;
  last = null;
  tuned = null;
  nextEvaluation = null;
  uploadRefusal = '';
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), location.origin), init);
    const url = new URL(request.url);
    const method = request.method;
    requests.push({ path: url.pathname, method, search: url.search, type: request.headers.get('Content-Type') ?? '',
      body: method === 'POST' ? await request.clone().text() : '' });
    const kb = '/v1/knowledge-bases/coast';
    if (url.pathname === `${kb}/judgments` && method === 'GET') {
      return json({ knowledge_base: 'coast', queries: judgedCount, judgments: [] });
    }
    if (url.pathname === `${kb}/judgments` && method === 'POST') {
      if (uploadRefusal) return problem(400, uploadRefusal);
      judgedCount += 20;
      return json({ knowledge_base: 'coast', added: 20, deleted: 0, queries: judgedCount });
    }
    if (url.pathname === `${kb}/judgments` && method === 'DELETE') {
      const deleted = judgedCount;
      judgedCount = 0;
      return json({ knowledge_base: 'coast', added: 0, deleted, queries: 0 });
    }
    if (url.pathname === `${kb}/evaluation`) {
      if (url.searchParams.get('last') === 'true') {
        return last ? json(last) : problem(404, "knowledge base 'coast' was never evaluated");
      }
      if (nextEvaluation) return nextEvaluation;
      last = evaluation;
      return json(evaluation);
    }
    if (url.pathname === `${kb}/tune`) {
      if (judgedCount < MIN_JUDGED) {
        return problem(400, `knowledge base 'coast' has ${judgedCount} judged queries: tuning needs at least 20`);
      }
      return json({ job_id: 'tune-1', status: 'queued', knowledge_base: 'coast', location: '/v1/jobs/tune-1' }, 202);
    }
    if (url.pathname === '/v1/jobs/tune-1') {
      tuned = tuning;
      return json({ id: 'tune-1', kind: 'tune', status: 'succeeded', error: null, attempts: 1, created_at: null,
        updated_at: new Date().toISOString(), percentage: 100, eta_seconds: null, progress: null,
        knowledge_base: 'coast', source_id: null, started_at: null });
    }
    if (url.pathname === `${kb}/tuning` && method === 'GET') {
      return tuned ? json(tuned) : problem(404, "knowledge base 'coast' was not tuned");
    }
    if (url.pathname === `${kb}/tuning` && method === 'DELETE') {
      tuned = null;
      return new Response(null, { status: 204 });
    }
    return problem(404, `no route ${url.pathname}`);
  }));
});
afterEach(() => vi.unstubAllGlobals());

/** The section as the tab holds it: with the app's reducer, so a tuning job started here is tracked there. */
function Harness() {
  const [state, dispatch] = useReducer(reducer, undefined, () => initialState());
  return (
    <>
      <Quality kb="coast" runs={state.runs} dispatch={dispatch} />
      <ul aria-label="Tracked jobs">{state.runs.map((r) => <li key={r.jobId}>{r.label}: {r.job?.status}</li>)}</ul>
    </>
  );
}

describe('the quality formatting', () => {
  it('shows each run with nDCG@10 and its 95% interval, and a signed difference with its p', () => {
    expect(runCells(evaluation.runs[0])).toEqual({ name: 'configured', ndcg10: '0.512 [0.471–0.553]',
      recall100: '0.877', mrr10: '0.601', vs: '—', significant: '' });
    expect(runCells(evaluation.runs[1])).toMatchObject({ vs: '−0.111 (p < 0.001)', significant: 'worse' });
    expect(runCells(run('tuned', { ndcg10_ci95: null, vs_configured: { run: 'configured', delta: 0.02, ci95: null,
      p: 0.2 } }))).toMatchObject({ ndcg10: '0.512', vs: '+0.020 (p = 0.200)', significant: '' });
    expect(signed(0.0001)).toBe('±0.000');
    expect(pValue(0.0412)).toBe('p = 0.041');
  });

  it('blocks tuning under 20 judged queries, saying why', () => {
    expect(tuneBlocked(19)).toBe('Tuning needs at least 20 judged queries; this knowledge base has 19.');
    expect(tuneBlocked(MIN_JUDGED)).toBe('');
    expect(tuneBlocked(null)).not.toBe('');
  });

  it('says a tuned fusion in words', () => {
    expect(fusionWords(tuning)).toBe('weighted: fulltext 0.7 · vector 0.3');
    expect(fusionWords({ fusion: 'rrf', weights: null, rrf_k: 30 })).toBe('rrf, k = 30');
    expect(fusionWords({ fusion: 'configured', weights: {}, rrf_k: null, fulltext_document_weight: 1,
      candidate_depth: null })).toBe('configured · whole-document weight 1');
    expect(fusionWords({ fusion: 'configured', weights: {}, rrf_k: null, vector_document_weight: 0.75 }))
      .toBe('configured · vector whole-document weight 0.75');
    expect(fusionWords({ fusion: 'configured', weights: {}, rrf_k: null, candidate_depth: 200 }))
      .toBe('configured · 200 candidates per leg');
  });
});

describe('the quality section', () => {
  it('says "not evaluated yet" on a 404, and disables Tune under 20 judged queries', async () => {
    render(<Harness />);
    expect(await screen.findByText('5 judged queries')).toBeTruthy();
    expect(await screen.findByText('Not evaluated yet.')).toBeTruthy();
    const tune = screen.getByRole('button', { name: 'Tune' }) as HTMLButtonElement;
    expect(tune.disabled).toBe(true);
    expect(tune.title).toContain('at least 20 judged queries');
    expect(screen.getByText(/this knowledge base has 5\./)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks nothing more of a knowledge base without judged queries', async () => {
    judgedCount = 0;
    render(<Harness />);
    expect(await screen.findByText('Not evaluated yet: add judged queries first.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Evaluate' }) as HTMLButtonElement).disabled).toBe(true);
    expect(requests.map((r) => r.path)).toEqual(['/v1/knowledge-bases/coast/judgments']);
  });

  it('shows the last evaluation kept, and evaluates again while showing it is busy', async () => {
    last = { ...evaluation, runs: [run('configured', { ndcg10: 0.3 })] };
    const user = userEvent.setup();
    render(<Harness />);
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('rowheader', { name: 'configured' })).toBeTruthy();
    expect(within(table).getByText('0.300 [0.471–0.553]')).toBeTruthy();
    expect(screen.getByText(/Last evaluated/).textContent).toContain('on 25 judged queries over 120 documents');

    let answer!: (r: Response) => void;
    nextEvaluation = new Promise((r) => { answer = r; });
    await user.click(screen.getByRole('button', { name: 'Evaluate' }));
    const busy = screen.getByRole('button', { name: 'Evaluating…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Evaluating 5 judged queries…');
    answer(json(evaluation));
    expect(await screen.findByText('0.512 [0.471–0.553]')).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'RunnDCG@10 [95% CI]Recall@100MRR@10vs configured',
      'configured0.512 [0.471–0.553]0.8770.601—',
      'vector0.401 [0.471–0.553]0.8770.601−0.111 (p < 0.001)']);
    expect(screen.getByRole('button', { name: 'Evaluate' })).toBeTruthy();
  });

  it('shows the server\'s detail when an evaluation is refused', async () => {
    nextEvaluation = Promise.resolve(problem(400, "knowledge base 'coast' has no judged queries"));
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(await screen.findByRole('button', { name: 'Evaluate' }));
    expect((await screen.findByRole('alert')).textContent).toBe("knowledge base 'coast' has no judged queries");
  });

  it('tunes: follows the job to its end, shows what it chose, and goes back to the configured fusion', async () => {
    judgedCount = 25;
    const user = userEvent.setup();
    render(<Harness />);
    const tune = await screen.findByRole('button', { name: 'Tune' }) as HTMLButtonElement;
    await waitFor(() => expect(tune.disabled).toBe(false));
    await user.click(tune);
    expect(await screen.findByText('applied')).toBeTruthy();
    expect(screen.getByText(tuning.reason)).toBeTruthy();
    expect(screen.getByText(/In use: weighted: fulltext 0\.7 · vector 0\.3/)).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Tracked jobs' })).getByText('fusion tuning of coast: succeeded'))
      .toBeTruthy();
    expect(requests.filter((r) => r.method !== 'GET' || r.path.includes('tun') || r.path.includes('jobs'))
      .map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/knowledge-bases/coast/tuning',
      'POST /v1/knowledge-bases/coast/tune', 'GET /v1/jobs/tune-1', 'GET /v1/knowledge-bases/coast/tuning']);

    await user.click(screen.getByRole('button', { name: 'Use configured fusion' }));
    expect(await screen.findByText('coast searches with the configured fusion again.')).toBeTruthy();
    expect(screen.queryByText('applied')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('uploads BEIR qrels and queries as one multipart request, and shows the detail of a refusal', async () => {
    uploadRefusal = "qrels line 2 judges query 'q9', which queries does not hold";
    const user = userEvent.setup();
    render(<Harness />);
    await screen.findByText('5 judged queries');
    await user.click(screen.getByText('Add judgments', { selector: 'summary' }));
    const add = screen.getByRole('button', { name: 'Add judgments' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    await user.upload(screen.getByLabelText('qrels'), new File(['query-id\tcorpus-id\tscore\nq1\td1\t1\n'],
      'test.tsv', { type: 'text/tab-separated-values' }));
    await user.upload(screen.getByLabelText('queries'), new File(['{"_id": "q1", "text": "high tide"}\n'],
      'queries.jsonl', { type: 'application/jsonl' }));
    await user.click(add);
    expect((await screen.findByRole('alert')).textContent).toBe(uploadRefusal);
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.type).toMatch(/^multipart\/form-data; boundary=/);
    // (jsdom's File does not reach the body Node's fetch writes: the browser sends the files themselves)
    expect(post.body).toContain('name="qrels"');
    expect(post.body).toContain('name="queries"');

    uploadRefusal = '';
    await user.click(add);
    expect(await screen.findByText('Added 20 judged queries; 25 judged queries in all.')).toBeTruthy();
    expect(screen.getByText('25 judged queries')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByRole('button', { name: 'Tune' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('clears the judged queries after a confirmation', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(await screen.findByRole('button', { name: 'Clear judgments…' }));
    expect(screen.getByText('Delete the 5 judged queries of coast?')).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Deleted 5 judged queries.')).toBeTruthy();
    expect(screen.getByText('0 judged queries')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path))
      .toEqual(['/v1/knowledge-bases/coast/judgments']);
  });
});
