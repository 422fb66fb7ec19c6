import type { ReactNode } from 'react';

// English words too common to be worth marking (a question's "what", "does", "the"...). Words of one or two
// letters ("a", "of", "is", "in", "to") are skipped by length.
const STOP = new Set([
  'the', 'and', 'for', 'are', 'was', 'were', 'with', 'what', 'who', 'whom', 'whose', 'how', 'does', 'did', 'done',
  'doing', 'that', 'this', 'these', 'those', 'from', 'which', 'when', 'where', 'why', 'into', 'onto', 'about',
  'has', 'have', 'had', 'having', 'its', 'not', 'but', 'nor', 'can', 'could', 'would', 'should', 'will', 'shall',
  'may', 'might', 'must', 'there', 'their', 'theirs', 'they', 'them', 'then', 'than', 'been', 'being', 'you',
  'your', 'yours', 'our', 'ours', 'all', 'any', 'some', 'such', 'also', 'more', 'most', 'other', 'only', 'own',
  'same', 'very', 'just', 'over', 'under', 'between', 'after', 'before', 'each', 'few', 'both', 'here', 'her',
  'hers', 'his', 'him', 'she', 'itself', 'per', 'via', 'yet', 'too', 'out', 'off', 'upon', 'during',
  'while', 'whether', 'because', 'until', 'against', 'above', 'below', 'through', 'again', 'further', 'once',
  'many', 'much', 'get', 'gets', 'got', 'tell', 'please', 'anything', 'something', 'whats',
]);

/** The query's words worth marking: three letters or more, not an English stop word. */
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
