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

  it('marks no English stop word and no word of one or two letters', () => {
    expect(terms('What is the capital of France, and how does it work in a day?')).toEqual(['capital', 'france',
      'work', 'day']);
    expect(terms('The a of and is in to how what does')).toEqual([]);
    const { container } = render(<p>{highlight('The history of the Radium Institute is what matters.',
      'what is the history of the Radium Institute')}</p>);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['history', 'Radium',
      'Institute']);
  });

  it('treats regex characters in the query as text', () => {
    const { container } = render(<p>{highlight('a (b+c) d', '(b+c)')}</p>);
    expect(container.textContent).toBe('a (b+c) d');
  });
});
