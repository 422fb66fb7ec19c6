// Light, dark, or the system's choice (prefers-color-scheme), remembered per browser. The colours are CSS custom
// properties on :root (styles.css); the resolved theme is set as <html data-theme="light|dark">, which the dark
// palette overrides them for.
import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' }, { value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' },
];
export const THEME_STORAGE = 'polyrag.theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function loadTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_STORAGE);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export function saveTheme(choice: ThemeChoice) {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE);
    else localStorage.setItem(THEME_STORAGE, choice);
  } catch {
    // Storage refused: the choice lasts this page only.
  }
}

function systemDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** The theme to show for a choice: the system's when the choice is System. */
export function resolveTheme(choice: ThemeChoice): 'light' | 'dark' {
  return choice === 'system' ? (systemDark() ? 'dark' : 'light') : choice;
}

/** The chosen theme, applied to the document and remembered; System follows the system's changes live. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(loadTheme);
  useEffect(() => {
    const apply = () => { document.documentElement.dataset.theme = resolveTheme(choice); };
    apply();
    saveTheme(choice);
    if (choice !== 'system' || typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(DARK_QUERY);
    media.addEventListener?.('change', apply);
    return () => media.removeEventListener?.('change', apply);
  }, [choice]);
  return [choice, setChoice];
}
