import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its box when the screen is narrower than it, instead of widening the page.
 * The box is a labelled region that takes focus, so the keyboard can scroll it too (WCAG: scrollable regions).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>{children}</div>;
}
