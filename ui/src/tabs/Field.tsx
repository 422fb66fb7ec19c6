import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * A labelled form field with its hint and error, wired for screen readers: the control is described by both and
 * marked invalid while there is an error.
 */
export function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string;
  error?: string; children: ReactNode }) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children as ReactElement<Record<string, unknown>>, { 'aria-describedby': described,
      'aria-invalid': error ? true : undefined })
    : children;
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint ? <span className="hint" id={`${id}-hint`}>{hint}</span> : null}
      {error ? <span className="error" id={`${id}-error`}>{error}</span> : null}
    </div>
  );
}
