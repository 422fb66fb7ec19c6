import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { highlight, terms } from '../highlight';

describe('highlighting', () => {
  it('marks words that start with a query term, case-insensitively, and skips stop words', () => {
    expect(terms('Where did the Curies work?')).toEqual(['curies', 'work']);
    const { container } = render(<p>{highlight('Marie Curie worked in Paris; curies are units.', 'curie work')}</p>);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Curie', 'worked',
      'curies']);
    expect(container.textContent).toBe('Marie Curie worked in Paris; curies are units.');
  });

  it('treats regex characters in the query as text', () => {
    const { container } = render(<p>{highlight('a (b+c) d', '(b+c)')}</p>);
    expect(container.textContent).toBe('a (b+c) d');
  });
});
