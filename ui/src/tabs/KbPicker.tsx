import { useEffect, useState } from 'react';
import { api, message, ok } from '../api/client';

/** What the closed picker shows: the whole selection in a few words. */
export function kbSummary(selected: string[]): string {
  if (selected.length === 0) return 'All knowledge bases';
  if (selected.length === 1) return `Knowledge base: ${selected[0]}`;
  return `${selected.length} knowledge bases`;
}

/**
 * The knowledge bases a search or a question is limited to: a disclosure holding a fieldset of checkboxes, one per
 * knowledge base of GET /v1/knowledge-bases. None ticked means all of them. A remembered name the list no longer
 * has (deleted, or another key's) is dropped once the list arrives.
 */
export function KbPicker({ id, legend, selected, onChange }: { id: string; legend: string; selected: string[];
  onChange: (kbs: string[]) => void }) {
  const [names, setNames] = useState<string[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    ok(api.GET('/v1/knowledge-bases')).then((r) => {
      if (!live) return;
      setNames((r.knowledge_bases ?? []).map((kb) => kb.name ?? '').filter(Boolean));
      setError('');
    }).catch((e) => { if (live) setError(message(e)); });
    return () => { live = false; };
  }, []);

  useEffect(() => {
    if (!names) return;
    const kept = selected.filter((n) => names.includes(n));
    if (kept.length !== selected.length) onChange(kept);
  }, [names, selected, onChange]);

  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...selected.filter((n) => n !== name), name] : selected.filter((n) => n !== name));

  return (
    <details className="kb-picker" id={id}>
      <summary title={selected.length > 1 ? selected.join(', ') : undefined}>{kbSummary(selected)}</summary>
      <fieldset aria-describedby={`${id}-hint`}>
        <legend>{legend}</legend>
        <p className="hint" id={`${id}-hint`}>None ticked: all of yours.</p>
        {error ? <p className="error">Cannot list the knowledge bases: {error}</p> : null}
        {!names && !error ? <p className="hint" role="status">Loading…</p> : null}
        {names && names.length === 0 ? <p className="hint">No knowledge bases yet.</p> : null}
        <div className="kb-options">
          {(names ?? []).map((n) => (
            <label key={n} className="choice"><input type="checkbox" checked={selected.includes(n)}
              onChange={(e) => toggle(n, e.target.checked)} />{n}</label>
          ))}
        </div>
        {selected.length ? <button type="button" className="link" onClick={() => onChange([])}>
          Use all knowledge bases</button> : null}
      </fieldset>
    </details>
  );
}
