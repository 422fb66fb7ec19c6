import type { ReactNode } from 'react';

const STOP = new Set(['the', 'and', 'for', 'are', 'was', 'with', 'what', 'who', 'how', 'does', 'that', 'this',
  'from', 'which', 'when', 'where', 'why', 'into', 'about', 'did', 'has', 'have', 'its']);

/** The query's words worth marking: three letters or more, not a stop word. */
export function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length >= 3 && !STOP.has(t)))];
}

/** The text with each word that starts with a query term marked. */
export function highlight(text: string, query: string): ReactNode[] {
  const ts = terms(query);
  if (!ts.length || !text) return [text];
  const escaped = ts.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])((?:${escaped.join('|')})[\\p{L}\\p{N}]*)`, 'giu');
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push(<mark key={at}>{m[0]}</mark>);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
