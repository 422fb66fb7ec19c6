import { useCallback, useEffect, useRef, useState } from 'react';
import type { TabProps } from '../App';
import { ApiError, api, done, figureImage, message, ok, streamEvents, type Answer, type AnswerSource, type Figure }
  from '../api/client';
import { highlight } from '../highlight';
import type { Turn } from '../state';
import { KbPicker } from './KbPicker';
import { queryBody } from './Search';

let nextTurn = 1;
/** Conversations listed per request. */
const PAGE = 50;
/** Bumped by every pick of a conversation: a transcript that arrives after a newer pick is not shown. */
let opening = 0;

/** An id for a new conversation, kept by the server under the caller's key. */
function newConversationId(): string {
  return `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

interface Kept { id: string | null; title: string | null; turns: number }

/** A model call may be silent up to POLYRAG_LLM_TIMEOUT_SECONDS (at most 600 s): a stream quiet for longer is dead. */
const ANSWER_IDLE_MS = 660_000;

/** The answer streaming now, if any (one at a time). */
let answering: AbortController | null = null;

/** Stops the answer being written, if any. */
export function stopAnswer() {
  answering?.abort();
}
const STOPPED = 'stopped: the rest of the answer was not written';

export function ChatTab({ state, dispatch, config }: TabProps) {
  const { draft, turns, opened, conversation } = state.chat;
  // One turn at a time: a second question sent while the first streams went without its answer as context, and a
  // delete while it streamed was undone when the server kept the finished turn.
  const streaming = turns.some((t) => t.status === 'streaming');
  const [kept, setKept] = useState<Kept[]>([]);
  const [keptError, setKeptError] = useState('');
  // The newest conversations first; a full page says there may be older ones, fetched on request.
  const [older, setOlder] = useState(false);
  const refresh = useCallback(() => {
    ok(api.GET('/v1/conversations', { params: { query: { limit: PAGE } } }))
      .then((r) => { setKept(r.conversations ?? []); setOlder((r.conversations ?? []).length === PAGE);
        setKeptError(''); })
      .catch((e) => setKeptError(message(e)));
  }, []);
  const loadOlder = () => {
    ok(api.GET('/v1/conversations', { params: { query: { offset: kept.length, limit: PAGE } } }))
      .then((r) => { const page = r.conversations ?? [];
        setKept((k) => [...k, ...page.filter((c) => !k.some((x) => x.id === c.id))]);
        setOlder(page.length === PAGE); })
      .catch((e) => setKeptError(message(e)));
  };
  useEffect(() => { refresh(); }, [refresh]);
  const open = async (id: string) => {
    const mine = ++opening;
    const asKey = state.apiKey;   // read under this key: another key's tenant must not see it
    if (!id) {
      dispatch({ type: 'conversation', id: '' });
      return;
    }
    try {
      const c = await ok(api.GET('/v1/conversations/{id}', { params: { path: { id } } }));
      if (mine !== opening) return;   // another conversation was picked meanwhile: this transcript is not shown
      const restored: Turn[] = [];
      for (const m of c.messages ?? []) {
        if (m.role === 'user') {
          restored.push({ id: nextTurn++, question: m.content ?? '', answer: '', sources: [], status: 'done',
            error: '', mode: '', note: '' });
        } else if (m.role === 'assistant' && restored.length) {
          restored[restored.length - 1].answer = m.content ?? '';
        }
      }
      dispatch({ type: 'conversation', id, turns: restored, asKey });
    } catch (e) {
      if (mine === opening) setKeptError(message(e));
    }
  };
  const remove = async () => {
    if (!conversation) return;
    try {
      await done(api.DELETE('/v1/conversations/{id}', { params: { path: { id: conversation } } }));
    } catch (e) {
      // Still on the server: its transcript stays on screen. One the server does not hold (never stored, deleted
      // elsewhere) is gone already.
      if (!(e instanceof ApiError && e.status === 404)) {
        setKeptError(message(e));
        return;
      }
    }
    dispatch({ type: 'conversation', id: '' });
    refresh();
  };
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => { end.current?.scrollIntoView?.({ block: 'nearest' }); }, [turns.length]);

  // The answer streaming, stopped by Stop, by New or another conversation, and by another key (App): the server
  // stops its model only once the client hangs up, and the answer left went on being paid for. Not when the tab is
  // left: the answer goes on filling the transcript, there on return.
  const stop = stopAnswer;
  const ask = async () => {
    const question = draft.trim();
    if (!question || streaming) return;
    const ctl = new AbortController();
    answering = ctl;
    const id = nextTurn++;
    const conversationId = conversation || newConversationId();
    if (!conversation) dispatch({ type: 'conversation', id: conversationId });
    dispatch({ type: 'ask', turn: { id, question, answer: '', sources: [], status: 'streaming', error: '', mode: '',
      note: '' } });
    try {
      await streamEvents('/v1/query', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        // The server keeps the conversation: a follow-up ("And at what temperature?") leans on its earlier turns.
        // The knowledge bases chosen, none meaning all, sent every time: a question is asked where the picker says,
        // not in the scope of the conversation's last narrowed one.
        body: JSON.stringify({ ...queryBody(question, state.search.controls, config?.fusion ?? undefined),
          kb: state.search.controls.kbs,
          stream: true, conversation_id: conversationId }),
      }, (e) => {
        const data = JSON.parse(e.data);
        if (e.event === 'token') {
          dispatch({ type: 'turn', id, patch: (t: Turn) => ({ answer: t.answer + (data.text ?? '') }) });
        } else if (e.event === 'answer') {
          const a = data as Answer;
          dispatch({ type: 'turn', id, patch: { answer: a.answer ?? '', sources: a.sources ?? [], status: 'done',
            mode: a.mode ?? '', note: a.note ?? '', warnings: [...(a.degraded ?? []).map((d) =>
              `the ${d.modality} leg contributed nothing: ${d.reason}`), ...(a.warnings ?? [])] } });
        } else if (e.event === 'error') {
          dispatch({ type: 'turn', id, patch: { status: 'error', error: data.detail ?? 'the answer failed',
            sources: data.sources ?? [] } });
        }
      }, ctl.signal, undefined, ANSWER_IDLE_MS);
      // The server ends every answer's stream with 'answer' or 'error': one that closed without either was cut
      // (a proxy, a restart), and what came is not the whole answer.
      dispatch({ type: 'turn', id, patch: (t: Turn) => (t.status === 'streaming' ? { status: 'error',
        error: ctl.signal.aborted ? STOPPED : 'the answer stopped before it finished (the connection closed): '
          + 'ask again' } : {}) });
      refresh();
    } catch (e) {
      if (ctl.signal.aborted) {
        dispatch({ type: 'turn', id, patch: (t: Turn) => (t.status === 'streaming' ? { status: 'error',
          error: STOPPED } : {}) });
        return;
      }
      // A model that failed before its first token is an ordinary 502 problem that still carries the sources.
      dispatch({ type: 'turn', id, patch: { status: 'error', error: message(e),
        sources: e instanceof ApiError ? e.sources : [] } });
    }
  };

  const openedTurn = opened ? turns.find((t) => t.id === opened.turn) : undefined;
  const openedSource = openedTurn?.sources.find((s) => s.number === opened?.source);

  return (
    <section aria-labelledby="chat-title" className="chat">
      <h2 id="chat-title" className="sr-only">Chat</h2>
      <div className="chat-scope">
        <div className="conversations">
          <label htmlFor="chat-conversation">Conversation</label>
          <select id="chat-conversation" value={conversation} onChange={(e) => { stop(); void open(e.target.value); }}>
            <option value="">New conversation</option>
            {conversation && !kept.some((k) => k.id === conversation)
              ? <option value={conversation}>{turns[0]?.question ?? 'This conversation'}</option> : null}
            {kept.map((k) => <option key={k.id ?? ''} value={k.id ?? ''}>{k.title || k.id} ({k.turns})</option>)}
          </select>
          {older ? <button type="button" onClick={loadOlder}>Older conversations</button> : null}
          <button type="button" onClick={() => { stop(); dispatch({ type: 'conversation', id: '' }); }}>New</button>
          {streaming ? <button type="button" onClick={stop}>Stop</button> : null}
          {conversation ? <button type="button" className="danger" disabled={streaming}
            onClick={() => void remove()}>
            Delete conversation</button> : null}
          {keptError ? <span role="alert" className="error">{keptError}</span> : null}
        </div>
        <KbPicker id="chat-kbs" legend="Knowledge bases to ask" selected={state.search.controls.kbs}
          onChange={(kbs) => dispatch({ type: 'controls', patch: { kbs } })} />
      </div>
      <div className="chat-layout">
        {/* Busy while an answer streams: a screen reader reads the answer once, not each token as it grows. */}
        <div className="transcript" aria-live="polite" aria-busy={streaming}>
          {turns.length === 0 ? <p className="empty">Ask a question: the answer cites its sources by number;
            click a number to read the passage in its document.</p> : null}
          {turns.map((t) => (
            <article key={t.id} className="turn">
              <p className="question"><span className="who">You</span> {t.question}</p>
              <div className="reply">
                <span className="who">polyrag{t.mode ? <span className="muted"> · {t.mode}</span> : null}</span>
                <p className="answer-text">{cite(t, (n) => dispatch({ type: 'openCitation', turn: t.id, source: n }))}
                  {t.status === 'streaming' ? <span className="cursor" aria-hidden="true">▍</span> : null}</p>
                {t.status === 'done' && !t.answer && t.note ? <p className="hint">{t.note}</p> : null}
                {(t.warnings ?? []).map((w, i) => <p key={i} className="warn">{w}</p>)}
                {t.error ? <p role="alert" className="error">{t.error}</p> : null}
                {t.sources.length ? (
                  <ol className="cites">{t.sources.map((s) => (
                    <li key={s.number}><button type="button" className="link"
                      onClick={() => dispatch({ type: 'openCitation', turn: t.id, source: s.number })}>
                      [{s.number}] {s.title || s.uri}</button></li>))}</ol>
                ) : null}
              </div>
            </article>
          ))}
          <div ref={end} />
        </div>
        {openedSource && openedTurn ? (
          <aside className="citation card" aria-label={`Source ${openedSource.number}`}>
            <div className="aside-head">
              <h3>[{openedSource.number}] {openedSource.title || openedSource.uri}</h3>
              <button type="button" onClick={() => dispatch({ type: 'closeCitation' })}
                aria-label="Close the source">×</button>
            </div>
            <SourceCard source={openedSource} query={openedTurn.question} focus />
          </aside>
        ) : null}
      </div>
      <form className="composer" onSubmit={(e) => { e.preventDefault(); void ask(); }}>
        <label htmlFor="chat-draft" className="sr-only">Your question</label>
        <textarea id="chat-draft" rows={2} value={draft} placeholder="Ask your documents…"
          onChange={(e) => dispatch({ type: 'chatDraft', draft: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void ask();
            }
          }} />
        <button type="submit" className="primary" disabled={!draft.trim() || streaming}>Send</button>
      </form>
    </section>
  );
}

/** The answer with each [n] as a button that opens source n. */
function cite(t: Turn, open: (n: number) => void) {
  const known = new Set(t.sources.map((s) => s.number));
  return t.answer.split(/(\[\d+\])/g).map((part, i) => {
    const m = /^\[(\d+)\]$/.exec(part);
    if (m && known.has(Number(m[1]))) {
      return <button key={i} type="button" className="citeref" aria-label={`Open source ${m[1]}`}
        onClick={() => open(Number(m[1]))}>{part}</button>;
    }
    return <span key={i}>{part}</span>;
  });
}

/**
 * A cited document: its passages in reading order, the cited (retrieved) ones marked, neighbours around them. With
 * `focus`, the first cited passage is scrolled into view when the source opens (in its scrolling panel, and the
 * panel in the page), so the passage shows, not the top of the document.
 */
export function SourceCard({ source, query, focus = false }: { source: AnswerSource; query: string;
  focus?: boolean }) {
  const cited = useRef<HTMLQuoteElement>(null);
  const passages = source.passages ?? [];
  const first = passages.findIndex((p) => p.hit);
  useEffect(() => {
    const el = cited.current;
    if (!focus || !el) return;
    const panel = el.closest<HTMLElement>('.citation');
    if (panel) panel.scrollTop += el.getBoundingClientRect().top - panel.getBoundingClientRect().top - 8;
    el.scrollIntoView?.({ block: 'nearest' });
  }, [focus, source]);
  return (
    <div className="source">
      <p className="muted">{source.title || source.uri} · {source.knowledge_base} ·
        <span className="mono"> {source.document_id}</span></p>
      {source.uri ? <p className="muted mono">{source.uri}</p> : null}
      {passages.map((p, i) => (
        <blockquote key={p.chunk_id} ref={i === first ? cited : undefined}
          className={p.hit ? 'passage hit' : 'passage neighbour'} aria-current={i === first ? 'true' : undefined}>
          <span className="muted passage-meta">{p.hit ? <strong className="cited-tag">cited passage</strong>
            : 'neighbour'} · chunk {p.ordinal}{p.location ? ` · ${p.location}` : ''}
            {p.heading_path?.length ? ` · ${p.heading_path.join(' › ')}` : ''}
          </span>
          <p>{p.hit ? highlight(p.text ?? '', query) : p.text}</p>
        </blockquote>
      ))}
      <Figures figures={source.figures ?? []} />
    </div>
  );
}

/** The figures that came with a hit or a source: each image with its caption and place. */
export function Figures({ figures }: { figures: Figure[] }) {
  if (!figures.length) return null;
  return (
    <div className="figures">
      {figures.map((f) => <FigureView key={f.id ?? f.url ?? ''} figure={f} />)}
    </div>
  );
}

function FigureView({ figure }: { figure: Figure }) {
  const [src, setSrc] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    let url = '';
    figureImage(figure.url ?? '').then((u) => {
      if (live) { url = u; setSrc(u); } else URL.revokeObjectURL(u);
    }, (e: unknown) => { if (live) setError(message(e)); });
    return () => { live = false; if (url) URL.revokeObjectURL(url); };
  }, [figure.url]);
  const caption = figure.caption || `Figure ${figure.number}`;
  return (
    <figure className="figure">
      {src ? <a href={src} target="_blank" rel="noreferrer"><img src={src} alt={caption} width={figure.width}
        height={figure.height} /></a>
        : <div className="figure-placeholder" role={error ? 'alert' : undefined}>{error || 'Loading figure…'}</div>}
      <figcaption>{caption}{figure.location ? <span className="muted"> · {figure.location}</span> : null}
        {figure.anchored ? null : <span className="muted"> · caption matched</span>}</figcaption>
    </figure>
  );
}
