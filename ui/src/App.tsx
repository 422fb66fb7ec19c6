import { useCallback, useEffect, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { api, message, ok, setApiKey, setUnauthorizedHandler, type Configuration } from './api/client';
import { useJobUpdates } from './jobs';
import { initialState, loadKbs, reducer, saveKbs, TAB_LABELS, TABS, type Action, type State, type Tab } from './state';
import { SourcesTab, stopUploadsOf } from './tabs/Sources';
import { ProcessingTab } from './tabs/Processing';
import { SearchTab } from './tabs/Search';
import { ChatTab, stopAnswer } from './tabs/Chat';
import { KnowledgeBasesTab } from './tabs/KnowledgeBases';
import { GraphTab } from './tabs/Graph';
import { THEME_CHOICES, useTheme, type ThemeChoice } from './theme';

const KEY_STORAGE = 'polyrag.apiKey';

/**
 * The key kept for this tab's session; none where the browser blocks the site's storage (reading it threw during
 * the first render, and the page stayed blank), and kept in memory only when it cannot be written.
 */
export function storedKey(): string {
  try {
    return window.sessionStorage.getItem(KEY_STORAGE) ?? '';
  } catch {
    return '';
  }
}

function storeKey(key: string) {
  try {
    if (key) window.sessionStorage.setItem(KEY_STORAGE, key);
    else window.sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // Blocked or full: this page keeps the key until it is reloaded.
  }
}

export interface TabProps {
  state: State;
  dispatch: (a: Action) => void;
  config: Configuration | null;
}

export function App() {
  const [state, dispatch] = useReducer(reducer, undefined, () => {
    const key = storedKey();
    return initialState(key, loadKbs(key));
  });
  const [config, setConfig] = useState<Configuration | null>(null);
  const [configError, setConfigError] = useState('');
  // Whether this server needs a key, from /health (which needs none): without a key nothing is asked of /v1, so a
  // fresh visit to a server with keys shows the key prompt, not a row of refused requests.
  const [auth, setAuth] = useState<'unknown' | 'local' | 'keys'>('unknown');
  // What /health said, for the key box: a server that could not be asked is not claimed to be in local mode.
  const [reported, setReported] = useState<'unknown' | 'local' | 'keys'>('unknown');
  const [theme, setTheme] = useTheme();
  setApiKey(state.apiKey);
  const locked = auth === 'unknown' || (auth === 'keys' && !state.apiKey) || state.unauthorized;

  // Asked again after a failure (a server restarting, a proxy's moment), every few seconds up to a minute apart: a
  // first failure stayed on screen for the whole session, and the configuration it left unread with it.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait = 2000;
    const ask = () => ok(api.GET('/health')).then((h) => {
      if (stopped) return;
      const mode = h.auth === 'keys' ? 'keys' : 'local';
      setAuth(mode);
      setReported(mode);
      setConfigError(''); // the server answers: a configuration read still failing says so again
    }).catch((e) => {
      if (stopped) return;
      setAuth((a) => (a === 'unknown' ? 'local' : a));
      setConfigError(message(e));
      timer = setTimeout(ask, wait);
      wait = Math.min(wait * 2, 60_000);
    });
    void ask();
    return () => { stopped = true; clearTimeout(timer); };
  }, []);

  useEffect(() => {
    // A 401 proves the server has keys now: a tab opened in local mode before the first key was created showed
    // "no API key needed" and no box to enter one.
    setUnauthorizedHandler(() => {
      setAuth('keys');
      setReported('keys');
      dispatch({ type: 'unauthorized', value: true });
    });
  }, []);

  useEffect(() => {
    setApiKey(state.apiKey);
    if (locked) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait = 2000;
    const ask = () => ok(api.GET('/v1/configuration')).then((c) => {
      if (stopped) return;
      setConfig(c);
      setConfigError('');
    }).catch((e: { status?: number; message?: string }) => {
      if (stopped || e.status === 401) return;
      setConfigError(e.message ?? String(e));
      timer = setTimeout(ask, wait);
      wait = Math.min(wait * 2, 60_000);
    });
    void ask();
    return () => { stopped = true; clearTimeout(timer); };
  }, [state.apiKey, locked]);

  // The knowledge bases Search and Chat are limited to outlive a reload (one selection for both tabs).
  const kbs = state.search.controls.kbs;
  const kbsKey = state.apiKey;
  useEffect(() => saveKbs(kbs, kbsKey), [kbs, kbsKey]);

  useJobUpdates(state.runs, dispatch, state.apiKey, !locked);

  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onTabKey = useCallback((e: KeyboardEvent, tab: Tab) => {
    const i = TABS.indexOf(tab);
    const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft'
      ? TABS[(i + TABS.length - 1) % TABS.length] : e.key === 'Home' ? TABS[0] : e.key === 'End'
        ? TABS[TABS.length - 1] : null;
    if (next) {
      e.preventDefault();
      dispatch({ type: 'tab', tab: next });
      tabs.current[next]?.focus();
    }
  }, []);

  const props: TabProps = { state, dispatch, config };
  return (
    <div className="app">
      <header className="top">
        <h1 className="brand">polyrag</h1>
        <nav role="tablist" aria-label="Sections" className="tabs">
          {TABS.map((t) => (
            <button key={t} role="tab" id={`tab-${t}`} aria-selected={state.tab === t} aria-controls={`panel-${t}`}
              tabIndex={state.tab === t ? 0 : -1} ref={(el) => { tabs.current[t] = el; }}
              className={state.tab === t ? 'tab active' : 'tab'} onClick={() => dispatch({ type: 'tab', tab: t })}
              onKeyDown={(e) => onTabKey(e, t)}>
              {TAB_LABELS[t]}
              {t === 'processing' && activeRuns(state) > 0 ? <span className="badge">{activeRuns(state)}<span className="sr-only"> running</span></span> : null}
            </button>
          ))}
        </nav>
        <div className="top-tools">
          <KeyBox apiKey={state.unauthorized ? '' : state.apiKey} auth={reported} onKey={(key) => {
            if (key !== state.apiKey) {
              stopAnswer(); // the last tenant's answer is not written on
              // Its upload stops, and what it staged is deleted with its key (the reducer forgets the verdict).
              stopUploadsOf(state.apiKey, state.drafts.upload.staged, state.configured);
            }
            storeKey(key);
            dispatch({ type: 'apiKey', key });
          }} />
          <ThemePicker choice={theme} onChange={setTheme} />
        </div>
      </header>
      {locked && auth !== 'unknown' ? (
        <div role="alert" className="banner error">
          This server needs a valid API key. {state.unauthorized ? 'The key was refused: enter' : 'Enter'} one
          above (ask your operator, or create one with <code>polyrag keys create TENANT</code>).
        </div>
      ) : null}
      {configError ? <div role="alert" className="banner error">Cannot reach the server: {configError}</div> : null}
      <main id={`panel-${state.tab}`} role="tabpanel" aria-labelledby={`tab-${state.tab}`} className="panel"
        tabIndex={-1}>
        {locked ? <p className="empty">{auth === 'unknown' ? 'Connecting…' : 'Enter an API key to begin.'}</p>
          : <>
        {state.tab === 'sources' && <SourcesTab {...props} />}
        {state.tab === 'processing' && <ProcessingTab {...props} />}
        {state.tab === 'search' && <SearchTab {...props} />}
        {state.tab === 'chat' && <ChatTab {...props} />}
        {state.tab === 'kbs' && <KnowledgeBasesTab {...props} />}
        {state.tab === 'graph' && <GraphTab {...props} />}
          </>}
      </main>
      <footer className="foot">
        {config ? <span>polyrag {config.version} · {config.embedding_model} · answers: {config.answers}</span>
          : null}
        <a href="/v1/openapi.json">API</a>
      </footer>
    </div>
  );
}

function activeRuns(state: State) {
  return state.runs.filter((r) => r.job && (r.job.status === 'queued' || r.job.status === 'running')).length;
}

/**
 * The API key: set (with a way to forget it), asked for where the server requires one, and no input at all where
 * /health says the server runs in local mode. Until /health answers, an input that claims neither.
 */
function KeyBox({ apiKey, auth, onKey }: { apiKey: string; auth: 'unknown' | 'local' | 'keys';
  onKey: (key: string) => void }) {
  const [draft, setDraft] = useState('');
  if (apiKey) {
    return (
      <div className="keybox">
        <span>API key set</span>
        <button type="button" className="link" onClick={() => onKey('')}>Forget key</button>
      </div>
    );
  }
  if (auth === 'local') {
    return (
      <div className="keybox">
        <span title="This server runs without API keys: everything is one local tenant">No API key needed
          (local mode)</span>
      </div>
    );
  }
  return (
    <form className="keybox" onSubmit={(e) => { e.preventDefault(); onKey(draft.trim()); setDraft(''); }}>
      <label htmlFor="api-key">API key</label>
      {auth === 'keys' ? <span id="api-key-required" className="pill warn">required</span> : null}
      <input id="api-key" type="password" autoComplete="off" value={draft}
        placeholder={auth === 'keys' ? 'API key required' : 'if the server needs one'}
        aria-describedby={auth === 'keys' ? 'api-key-required' : undefined}
        onChange={(e) => setDraft(e.target.value)} />
      <button type="submit" disabled={!draft.trim()}>Use key</button>
    </form>
  );
}

function ThemePicker({ choice, onChange }: { choice: ThemeChoice; onChange: (c: ThemeChoice) => void }) {
  return (
    <div className="theme-picker">
      <label htmlFor="theme">Theme</label>
      <select id="theme" value={choice} onChange={(e) => onChange(e.target.value as ThemeChoice)}>
        {THEME_CHOICES.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
      </select>
    </div>
  );
}
