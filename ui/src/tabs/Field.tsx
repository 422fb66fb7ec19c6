import type { ReactNode } from 'react';

/** A labelled form field with its hint and error, wired for screen readers. */
export function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string;
  error?: string; children: ReactNode }) {
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <span className="hint" id={`${id}-hint`}>{hint}</span> : null}
      {error ? <span className="error" id={`${id}-error`} role="note">{error}</span> : null}
    </div>
  );
}
