import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../api/client';
import { pollJob, useJobPolling, useJobUpdates } from '../jobs';
import type { Run } from '../state';

const job = (status: string): Job => ({ id: 'j1', kind: 'ingest', status, error: null, attempts: 1,
  created_at: null, updated_at: null, percentage: status === 'succeeded' ? 100 : 40, eta_seconds: 3, progress: null,
  knowledge_base: null, source_id: null, started_at: null });

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('polling', () => {
  it('keeps one request in flight: the next is scheduled only after the previous answered', async () => {
    const answers = [deferred<Job>(), deferred<Job>()];
    let calls = 0;
    const fetchJob = vi.fn(() => answers[calls++].promise);
    const seen: string[] = [];
    pollJob('j1', (j) => seen.push(j.status ?? ''), { intervalMs: 1000, fetchJob });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(1);
    answers[0].resolve(job('running'));
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchJob).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchJob).toHaveBeenCalledTimes(2);
    answers[1].resolve(job('succeeded'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual(['running', 'succeeded']);
    expect(fetchJob).toHaveBeenCalledTimes(2);
  });

  it('waits longer while a job does not change and after errors, and is quick again once it moves', async () => {
    let answer: () => Promise<Job> = async () => ({ ...job('queued'), updated_at: 't0' });
    const fetchJob = vi.fn(() => answer());
    const p = pollJob('j1', () => {}, { intervalMs: 1000, fetchJob });
    await vi.advanceTimersByTimeAsync(60_000);
    // 1, 2, 4, 8, 15, 15 s apart: about 9 requests in a minute, not 60.
    expect(fetchJob.mock.calls.length).toBeLessThanOrEqual(9);
    answer = async () => { throw Object.assign(new Error('busy'), { status: 429 }); };
    const before = fetchJob.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchJob.mock.calls.length - before).toBeLessThanOrEqual(5);
    let n = 0;
    answer = async () => ({ ...job('running'), updated_at: `t${++n}` });
    await vi.advanceTimersByTimeAsync(15_000);
    const moving = fetchJob.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetchJob.mock.calls.length - moving).toBeGreaterThanOrEqual(4);
    p.stop();
  });

  it('stops on a terminal status, on stop (cancel), and on a 404', async () => {
    const done = vi.fn(async () => job('canceled'));
    const p1 = pollJob('j1', () => {}, { intervalMs: 100, fetchJob: done });
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toHaveBeenCalledTimes(1);
    expect(p1.stopped).toBe(true);

    const running = vi.fn(async () => job('running'));
    const p2 = pollJob('j1', () => {}, { intervalMs: 100, fetchJob: running });
    await vi.advanceTimersByTimeAsync(250);
    p2.stop();
    const after = running.mock.calls.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(running).toHaveBeenCalledTimes(after);

    const gone = vi.fn(async () => { throw Object.assign(new Error('no job'), { status: 404 }); });
    const p3 = pollJob('j1', () => {}, { intervalMs: 100, fetchJob: gone });
    await vi.advanceTimersByTimeAsync(1000);
    expect(gone).toHaveBeenCalledTimes(1);
    expect(p3.stopped).toBe(true);
  });

  it('stops when its owner unmounts', async () => {
    const fetchJob = vi.fn(async () => job('running'));
    const runs: Run[] = [{ jobId: 'j1', label: 'a.md', kind: 'upload', job: job('queued') }];
    const { unmount } = renderHook(() => useJobPolling(runs, () => {}, true, fetchJob));
    await vi.advanceTimersByTimeAsync(2500);
    const before = fetchJob.mock.calls.length;
    expect(before).toBeGreaterThanOrEqual(2);
    unmount();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(before);
  });

  it('stops a run whose job was canceled without waiting for the next answer', async () => {
    const fetchJob = vi.fn(async () => job('running'));
    let runs: Run[] = [{ jobId: 'j1', label: 'a.md', kind: 'upload', job: job('running') }];
    const { rerender } = renderHook(() => useJobPolling(runs, () => {}, true, fetchJob));
    await vi.advanceTimersByTimeAsync(1500);
    const before = fetchJob.mock.calls.length;
    runs = [{ ...runs[0], job: job('canceled') }];
    rerender();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(before);
  });

  it('stops a run no longer listed, and every run once polling is off (the key forgotten)', async () => {
    const fetchJob = vi.fn(async () => job('running'));
    let runs: Run[] = [{ jobId: 'j1', label: 'a.md', kind: 'upload', job: job('running') }];
    let enabled = true;
    const { rerender } = renderHook(() => useJobPolling(runs, () => {}, enabled, fetchJob));
    await vi.advanceTimersByTimeAsync(1500);
    const before = fetchJob.mock.calls.length;
    runs = [];
    enabled = false;
    rerender();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(before);
  });
});

describe('the event stream', () => {
  it('tags the jobs it lists and streams with the key they were asked under', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/v1/events')) {
        return new Response(`event: progress\ndata: ${JSON.stringify({ job: job('running') })}\n\n`,
          { headers: { 'Content-Type': 'text/event-stream' } });
      }
      return new Response(JSON.stringify({ jobs: [job('queued')] }), { headers: { 'Content-Type': 'application/json' } });
    }));
    const dispatch = vi.fn();
    const { unmount } = renderHook(() => useJobUpdates([], dispatch, 'key-a', true));
    await vi.advanceTimersByTimeAsync(100);
    const jobs = dispatch.mock.calls.map((c) => c[0]).filter((a) => a.type === 'jobs');
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.every((a) => a.asKey === 'key-a')).toBe(true);
    unmount();
    vi.unstubAllGlobals();
  });


  it('keeps reopening a stream that opens and is closed (a proxy\'s time limit) instead of polling after three',
    async () => {
      let opened = 0;
      vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('/v1/events')) {
          opened++;
          return new Response(': heartbeat\n\n', { headers: { 'Content-Type': 'text/event-stream' } });
        }
        return new Response(JSON.stringify({ jobs: [] }), { headers: { 'Content-Type': 'application/json' } });
      }));
      const dispatch = () => {};
      const { unmount } = renderHook(() => useJobUpdates([], dispatch, '', true));
      for (let i = 0; i < 8; i++) await vi.advanceTimersByTimeAsync(1100);
      expect(opened).toBeGreaterThanOrEqual(5);
      unmount();
      vi.unstubAllGlobals();
    });

  it('after an outage polls, keeps trying the stream, and streams again once it opens, reading the list anew',
    async () => {
      let down = true;
      let opened = 0;
      let lists = 0;
      vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('/v1/events')) {
          opened++;
          if (down) throw new TypeError('Failed to fetch');
          return new Response(new ReadableStream({ start() { /* open, as the server's */ } }),
            { headers: { 'Content-Type': 'text/event-stream' } });
        }
        lists++;
        return new Response(JSON.stringify({ jobs: [] }), { headers: { 'Content-Type': 'application/json' } });
      }));
      const dispatch = () => {};
      const { unmount } = renderHook(() => useJobUpdates([], dispatch, '', true));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(opened).toBe(3);     // given up for polling after three
      await vi.advanceTimersByTimeAsync(31_000);
      expect(opened).toBe(4);     // but tried again
      down = false;
      const listed = lists;
      await vi.advanceTimersByTimeAsync(31_000);
      expect(opened).toBe(5);
      expect(lists).toBe(listed + 1);   // streaming again: jobs started meanwhile are listed
      await vi.advanceTimersByTimeAsync(120_000);
      expect(opened).toBe(5);     // and it stays open
      unmount();
      vi.unstubAllGlobals();
    });

  it('reads the list anew at every reopen: a job whose end was missed meanwhile does not show running for good',
    async () => {
      let opened = 0;
      let lists = 0;
      vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('/v1/events')) {
          opened++;
          // The first stream ends at once (a proxy's limit, a sleep): opened again, with nothing replayed.
          return new Response(new ReadableStream({ start(c) { if (opened === 1) c.close(); } }),
            { headers: { 'Content-Type': 'text/event-stream' } });
        }
        lists++;
        return new Response(JSON.stringify({ jobs: [] }), { headers: { 'Content-Type': 'application/json' } });
      }));
      const older: Run[] = [{ jobId: 'old-upload', label: 'a.md', kind: 'upload', job: null }];
      const { unmount } = renderHook(() => useJobUpdates(older, () => {}, '', true));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(opened).toBe(2);
      expect(lists).toBe(3);   // at the start; at the reopen the list and the unfinished run not in it
      unmount();
      vi.unstubAllGlobals();
    });

  it('opens a new stream when one stays silent past the longest heartbeat interval', async () => {
    let opened = 0;
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/v1/events')) {
        opened++;
        return new Response(new ReadableStream({ start() { /* a dead connection: no byte, no end */ } }),
          { headers: { 'Content-Type': 'text/event-stream' } });
      }
      return new Response(JSON.stringify({ jobs: [] }), { headers: { 'Content-Type': 'application/json' } });
    }));
    const dispatch = () => {};
    const { unmount } = renderHook(() => useJobUpdates([], dispatch, '', true));
    await vi.advanceTimersByTimeAsync(590_000);
    expect(opened).toBe(1);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(opened).toBe(2);
    unmount();
    vi.unstubAllGlobals();
  });
});
