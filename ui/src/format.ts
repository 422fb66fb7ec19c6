// Small display helpers shared by the tabs.

export function formatBytes(n: number | null | undefined): string {
  const v = n ?? 0;
  return v < 1024 ? `${v} B` : v < 1024 * 1024 ? `${(v / 1024).toFixed(1)} KB` : `${(v / 1048576).toFixed(1)} MB`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A span of seconds in a few words: "12 s", "5 min", "1.5 h", "2 days". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (Math.round(s / 60) < 60) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${trim(s / 3600)} h`;
  const days = s / 86400;
  return `${trim(days)} day${days === 1 ? '' : 's'}`;
}

function trim(n: number): string {
  return n.toFixed(1).replace(/\.0$/, '');
}

/** When an instant was, relative to now: "just now", "12 s ago", "2 min ago", "3 h ago"; "" when unknown. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return '';
  const s = (now - t) / 1000;
  if (s < 5) return s > -5 ? 'just now' : `in ${duration(-s)}`;
  return `${duration(s)} ago`;
}

/** The exact local time of an instant, for a title beside a relative one. */
export function exactTime(iso: string | null | undefined): string {
  const t = iso ? new Date(iso) : null;
  return t && !Number.isNaN(t.getTime()) ? t.toLocaleString() : '';
}
