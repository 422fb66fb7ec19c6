// Live job progress: the tenant's event stream (GET /v1/events, read with fetch so the API key goes along), and,
// where the stream is not available, polling that reschedules itself after each response — one request in flight,
// never a queue — and stops on a terminal status, on cancel and when its owner unmounts.
import { useEffect, useRef, useState } from 'react';
import { api, ok, streamEvents, type Job } from './api/client';
import { isTerminal, type Action, type Run } from './state';

export interface Poller {
  stop(): void;
  readonly stopped: boolean;
}

/** The longest wait between two polls of a job that does not change, and after errors. */
const POLL_MAX_MS = 15_000;

/**
 * Polls one job: the next request is scheduled only once the previous one has answered. `fetchJob` is the call
 * (injectable for tests); a 404 stops. The wait doubles, up to 15 s, while the job does not change (a queued job
 * behind others) and after each error (a 429, a server restarting), and is back to `intervalMs` once it moves: many
 * open tabs polling many queued jobs asked once a second each, whatever the server answered.
 */
export function pollJob(id: string, onJob: (job: Job) => void, options: { intervalMs?: number;
  fetchJob?: (id: string) => Promise<Job> } = {}): Poller {
  const intervalMs = options.intervalMs ?? 1000;
  let wait = intervalMs;
  let last = '';
  const fetchJob = options.fetchJob ?? ((jobId: string) => ok(api.GET('/v1/jobs/{id}',
    { params: { path: { id: jobId } } })));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    timer = undefined;
    try {
      const job = await fetchJob(id);
      if (stopped) return;
      onJob(job);
      if (isTerminal(job.status)) {
        stopped = true;
        return;
      }
      const seen = `${job.status}|${job.updated_at ?? ''}|${job.percentage}`;
      wait = seen === last ? Math.min(wait * 2, POLL_MAX_MS) : intervalMs;
      last = seen;
    } catch (e) {
      if (stopped || (e as { status?: number }).status === 404) {
        stopped = true;
        return;
      }
      wait = Math.min(wait * 2, POLL_MAX_MS);
    }
    if (!stopped) timer = setTimeout(tick, wait);
  };
  timer = setTimeout(tick, 0);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    get stopped() {
      return stopped;
    },
  };
}

/**
 * Keeps the runs' jobs current while mounted: one event stream for all of them; if it cannot be opened (or drops
 * and cannot be reopened), one poller per unfinished job.
 */
/**
 * The server sends a heartbeat on an idle stream (every 15 s by default, at most every 300 s as
 * POLYRAG_HTTP_SSE_HEARTBEAT_SECONDS allows): a stream silent for twice the longest is taken as dead and opened again.
 */
const STREAM_IDLE_MS = 600_000;
/** How often the stream is tried again once it was given up for polling. */
const RETRY_WHILE_POLLING_MS = 30_000;

export function useJobUpdates(runs: Run[], dispatch: (a: Action) => void, apiKey: string, enabled = true) {
  const [streaming, setStreaming] = useState(true);
  const runsNow = useRef(runs);
  runsNow.current = runs;

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    setStreaming(true);
    let lastId: string | undefined;
    let failures = 0;
    let live = true;
    // This connection's own abort: the effect's end aborts it, and so does the browser coming back online.
    let conn = new AbortController();
    let reopen = false;
    const online = () => {
      reopen = true;
      conn.abort();
    };
    window.addEventListener('online', online);
    abort.signal.addEventListener('abort', () => conn.abort());
    // Tagged with the key they were asked under: a slow list of the last key landing after a switch showed that
    // tenant's jobs under the next one.
    const list = () => ok(api.GET('/v1/jobs', { params: { query: { limit: 20 } } })).then((page) => dispatch({
      type: 'jobs', jobs: page.jobs ?? [], asKey: apiKey })).catch(() => {});
    let attempts = 0;
    const open = async () => {
      while (!abort.signal.aborted) {
        attempts++;
        conn = new AbortController();
        try {
          await streamEvents('/v1/events', { headers: lastId ? { 'Last-Event-ID': lastId } : {} }, (e) => {
            failures = 0;
            if (e.id) lastId = e.id;
            try {
              const event = JSON.parse(e.data) as { job?: Job };
              if (event.job) dispatch({ type: 'jobs', jobs: [event.job], asKey: apiKey });
            } catch {
              // not a job event
            }
          }, conn.signal, () => {
            // Opened: the server is there. Only streams that cannot be opened count towards giving up (an idle one
            // closed by a proxy's time limit sends heartbeats, no events, and was given up after three closes).
            failures = 0;
            if (!live) {
              // Back after an outage: streaming again.
              live = true;
              setStreaming(true);
            }
            // Any reopen (an outage, the browser back online after a sleep, an idle stream closed): the list read
            // anew, for the jobs started and the ends missed meanwhile (the server replays only its last events,
            // and a job whose end fell out of them showed running for good).
            if (attempts > 1) {
              void list();
              // The list holds the newest 20: a run older than those (an upload before an hour of syncs) is read
              // on its own, or its missed end left it running for good.
              for (const r of runsNow.current) {
                if (r.job && isTerminal(r.job.status)) continue;
                ok(api.GET('/v1/jobs/{id}', { params: { path: { id: r.jobId } } }))
                  .then((job) => dispatch({ type: 'jobs', jobs: [job], asKey: apiKey })).catch(() => {});
              }
            }
          }, STREAM_IDLE_MS);
        } catch {
          if (abort.signal.aborted) return;
        }
        if (abort.signal.aborted) return;
        if (reopen) {
          // The browser came back online: this connection was likely dead (a sleep, a new network); a new one now.
          reopen = false;
          continue;
        }
        if (++failures >= 3 && live) {
          // Polled meanwhile (the runs listed here); the stream is tried again, less often, until it opens.
          live = false;
          setStreaming(false);
        }
        await new Promise((r) => setTimeout(r, live ? 1000 * failures : RETRY_WHILE_POLLING_MS));
      }
    };
    void open();
    // The list once, so jobs started elsewhere (or before a reload) show too.
    void list();
    return () => {
      window.removeEventListener('online', online);
      abort.abort();
    };
  }, [dispatch, apiKey, enabled]);

  useJobPolling(runs, (job) => dispatch({ type: 'jobs', jobs: [job], asKey: apiKey }), enabled && !streaming);
}

/**
 * While enabled and mounted, one poller per unfinished run; each stops on its job's terminal status (a cancel
 * included), and all stop on unmount.
 */
export function useJobPolling(runs: Run[], onJob: (job: Job) => void, enabled: boolean,
  fetchJob?: (id: string) => Promise<Job>) {
  const pollers = useRef(new Map<string, Poller>());
  const callback = useRef(onJob);
  callback.current = onJob;
  useEffect(() => {
    const all = pollers.current;
    for (const r of runs) {
      const poller = all.get(r.jobId);
      if (!enabled || isTerminal(r.job?.status)) {
        // Finished (or canceled: the cancel's answer carries the status) or no longer needed: stop now.
        poller?.stop();
        all.delete(r.jobId);
      } else if (!poller) {
        all.set(r.jobId, pollJob(r.jobId, (job) => callback.current(job), { fetchJob }));
      }
    }
    // A run no longer listed (the key forgotten, the list cut at its cap) stops too: its poller went on asking, with
    // no key a 401 a second and a "key was refused" banner after a deliberate forget.
    const listed = new Set(runs.map((r) => r.jobId));
    for (const [id, poller] of all) {
      if (!enabled || !listed.has(id)) {
        poller.stop();
        all.delete(id);
      }
    }
  }, [runs, enabled, fetchJob]);
  useEffect(() => {
    const all = pollers.current;
    return () => {
      all.forEach((p) => p.stop());
      all.clear();
    };
  }, []);
}

/** Cancels a job; its poller (if any) stops once the canceled status arrives. */
export async function cancelJob(id: string): Promise<Job> {
  return ok(api.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } }));
}
