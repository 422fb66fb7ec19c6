// The one way the UI talks to polyrag: openapi-fetch over the types generated from the served OpenAPI document, so
// every path, field and response shape is checked by the compiler. The API key (if any) rides on every request.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Hit = Schemas['SearchWireHit'];
export type Results = Schemas['SearchWireResults'];
export type Answer = Schemas['SearchWireAnswerBody'];
export type AnswerSource = Schemas['SearchWireSource'];
export type Figure = Schemas['SearchWireFigureBody'];
export type Job = Schemas['IngestWireJob'];
export type SearchBody = Schemas['DtosSearchBody'];
export type QueryBody = Schemas['DtosQueryBody'];
export type SourceBody = Schemas['DtosSourceBody'];
export type SyncSource = Schemas['IngestWireSource'];
export type Staged = Schemas['IngestWireStaged'];
export type Configuration = Schemas['AdminWireConfiguration'];
export type KnowledgeBase = Schemas['IngestWireKnowledgeBase'];
export type DocumentRow = Schemas['IngestWireDocument'];
export type DocumentDetail = Schemas['IngestWireDocumentDetail'];
export type FoundEntity = Schemas['AdminWireFoundEntity'];
export type Neighbourhood = Schemas['AdminWireNeighbourhood'];
export type Problem = Schemas['Problem'];
export type KbEvaluation = Schemas['KbEvaluation'];
export type KbEvaluationRun = Schemas['KbEvaluationRun'];
export type FusionTuning = Schemas['FusionTuning'];

/** A failed call, with the server's problem detail (which names the field and the fix). */
export class ApiError extends Error {
  /** The problem as the server sent it (a model's 502 carries the answer's `sources`). */
  readonly body?: unknown;

  constructor(readonly status: number, readonly detail: string, readonly title = '', body?: unknown) {
    super(detail || title || `HTTP ${status}`);
    this.body = body;
  }

  /** The sources a failed answer still carries (retrieval worked, the model did not); none otherwise. */
  get sources(): AnswerSource[] {
    const s = (this.body as { sources?: unknown } | undefined)?.sources;
    return Array.isArray(s) ? (s as AnswerSource[]) : [];
  }
}

let apiKey = '';
let keyAsGiven = '';
let onUnauthorized: () => void = () => {};

/** The key sent as `Authorization: Bearer`; empty for a server in local (no-key) mode. */
export function setApiKey(key: string) {
  keyAsGiven = key;
  apiKey = key.trim();
}

/** The key in use as the state holds it: an action tagged with it lands only while it is still the one in use. */
export function keyInUse(): string {
  return keyAsGiven;
}

/** Called whenever the server answers 401, so the UI can show its key prompt. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

export function authHeaders(): Record<string, string> {
  return apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
}

const auth: Middleware = {
  onRequest({ request }) {
    if (apiKey) request.headers.set('Authorization', `Bearer ${apiKey}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) onUnauthorized();
    return response;
  },
};

// Same origin; fetch looked up per call (so a test can stand in for the server).
export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '',
  fetch: (request: Request) => globalThis.fetch(request) });
api.use(auth);

/** The data of an openapi-fetch result, or an ApiError carrying the problem's detail. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) {
    throw toError(response.status, error);
  }
  return data;
}

/** Resolves when the call succeeded, whatever it answered (a 204 has no data); else an ApiError as `ok` throws. */
export async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw toError(response.status, error);
}

/** The data of a call, or null where the server answered 404 (nothing there yet); other failures reject. */
export async function unlessMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

function toError(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object') {
    const p = body as { detail?: string; title?: string };
    return new ApiError(status, p.detail ?? '', p.title ?? '', body);
  }
  if (typeof body === 'string' && /^\s*</.test(body)) {
    // A proxy's error page (nginx's 413, a 502 while the server restarts): its title, not its markup.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
    return new ApiError(status, `HTTP ${status}${title ? ` (${title.slice(0, 120)})` : ''} from a proxy in front of `
      + 'the server');
  }
  return new ApiError(status, typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`);
}

/** Bytes of a request body sent so far, of its total. */
export type SendProgress = (sent: number, total: number) => void;

/**
 * POSTs a multipart form with the key, reporting its bytes as they are sent (fetch cannot say) and stopping when
 * `signal` aborts (rejects with an AbortError). Resolves to the JSON of a 2xx; otherwise an ApiError as `ok` throws.
 */
export function postForm<T>(path: '/v1/ingest/upload', body: FormData, onProgress: SendProgress,
  signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const canceled = () => reject(new DOMException('the upload was canceled', 'AbortError'));
    if (signal.aborted) {
      canceled();
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', (globalThis.location?.origin ?? '') + path);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onload = () => {
      if (xhr.status === 401) onUnauthorized();
      let parsed: unknown = xhr.responseText;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: shown as text
      }
      if (xhr.status >= 200 && xhr.status < 300 && parsed && typeof parsed === 'object') resolve(parsed as T);
      else reject(toError(xhr.status, parsed));
    };
    xhr.onerror = () => reject(new ApiError(0, 'the server could not be reached (the connection failed or was '
      + 'closed mid-upload)'));
    xhr.onabort = canceled;
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** One server-sent event. */
export interface ServerEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream answered to `fetch` (EventSource cannot send an API key), calling `onEvent` for each
 * event until the stream ends or `signal` aborts. Rejects with an ApiError when the server refuses the request.
 */
export async function streamEvents(url: string, init: RequestInit, onEvent: (e: ServerEvent) => void,
  signal?: AbortSignal, onOpen?: () => void, idleMs?: number): Promise<void> {
  const response = await fetch(url, { ...init, signal, headers: { ...authHeaders(), ...(init.headers ?? {}) } });
  if (response.status === 401) onUnauthorized();
  if (!response.ok) {
    let body: unknown = undefined;
    try {
      body = await response.json();
    } catch {
      // not JSON
    }
    throw toError(response.status, body);
  }
  if (!response.body) throw new ApiError(0, 'this browser cannot read streamed responses');
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await readWithin(reader, idleMs);
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const event = parseEvent(block);
      if (event) onEvent(event);
    }
  }
}

/**
 * The stream's next piece, or an error once {@code idleMs} pass without one (the stream is cancelled): a connection
 * that died without closing (a laptop's sleep, a proxy's dropped mapping) never ends a read by itself.
 */
async function readWithin(reader: ReadableStreamDefaultReader<string>, idleMs?: number) {
  if (!idleMs) return reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(0, `the stream sent nothing for ${idleMs / 1000} s`)), idleMs);
  });
  try {
    return await Promise.race([reader.read(), silent]);
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

export function parseEvent(block: string): ServerEvent | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return data.length ? { id, event, data: data.join('\n') } : null;
}

/**
 * The file name a Content-Disposition header gives (its UTF-8 filename* first), or null: the original's own name,
 * with its extension, where a document's title ("Microsoft Word - Q3.docx", a stem with dots) is not a file name.
 */
export function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const utf8 = /filename\*=UTF-8''([^;\s]+)/i.exec(header);
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]);
    } catch {
      // a malformed escape: the plain name below
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : null;
}

/** Downloads a document's stored original with the key (a plain link could not send it), under its own name. */
export async function downloadOriginal(documentId: string, name: string) {
  const response = await fetch(`/v1/documents/${encodeURIComponent(documentId)}/content`, { headers: authHeaders() });
  if (!response.ok) throw toError(response.status, await response.json().catch(() => undefined));
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = dispositionName(response.headers.get('Content-Disposition')) ?? name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A figure's image as an object URL, fetched with the key (an <img src> could not send it); the caller revokes it.
 * Only the server's own figure route is fetched.
 */
export async function figureImage(url: string): Promise<string> {
  if (!/^\/v1\/documents\/[^/?#]+\/figures\/\d+$/.test(url)) throw new Error(`not a figure URL: ${url}`);
  const response = await fetch(url, { headers: authHeaders() });
  if (!response.ok) throw toError(response.status, await response.json().catch(() => undefined));
  return URL.createObjectURL(await response.blob());
}

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
