import { describe, expect, it } from 'vitest';
import { ago, duration } from '../format';
import { editBody, editDraft, lines, sourceReads, validateEdit } from '../sources';
import { jobWords } from '../state';

describe('times in words', () => {
  it('says a span of seconds briefly', () => {
    expect([0, 12, 59, 60, 300, 3599, 3600, 5400, 86400, 172800].map(duration)).toEqual(['0 s', '12 s', '59 s',
      '1 min', '5 min', '1 h', '1 h', '1.5 h', '1 day', '2 days']);
  });

  it('says when an instant was, relative to now', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(ago('2026-01-01T11:58:00Z', now)).toBe('2 min ago');
    expect(ago('2026-01-01T11:59:48Z', now)).toBe('12 s ago');
    expect(ago('2026-01-01T12:00:01Z', now)).toBe('just now');
    expect(ago(null, now)).toBe('');
    expect(ago('not a time', now)).toBe('');
  });
});

describe('job kinds in words', () => {
  it('names uploads, syncs with their source, and reindexes', () => {
    expect(jobWords({ kind: 'ingest-upload', source_id: null })).toBe('upload');
    expect(jobWords({ kind: 'sync', source_id: 'handbook' })).toBe('sync of handbook');
    expect(jobWords({ kind: 'sync', source_id: null })).toBe('sync');
    expect(jobWords({ kind: 'reindex', source_id: null })).toBe('reindex');
    expect(jobWords({ kind: null, source_id: null })).toBe('job');
  });
});

describe('a sync source', () => {
  const web = { source_id: 'site', type: 'web', knowledge_base: 'docs', interval_seconds: 3600, enabled: true,
    created_at: null, last_scan_at: null, last_error: null, items: 2,
    config: { start_urls: ['https://a.example/guide/'], path_prefix: '/', max_pages: 50, max_depth: 2,
      skip_graph: true } };

  it('says what it reads', () => {
    expect(sourceReads(web)).toBe('https://a.example/guide/');
    expect(sourceReads({ ...web, config: { ...web.config, path_prefix: '/guide/' } }))
      .toBe('https://a.example/guide/ (below /guide/)');
    expect(sourceReads({ ...web, type: 'filesystem', config: { root: '/srv/docs' } })).toBe('/srv/docs');
  });

  it('is edited with its whole settings: id, type and knowledge base kept, unseen config kept', () => {
    const draft = { ...editDraft(web), maxPages: '80', pathPrefix: '/guide/', enabled: false };
    expect(validateEdit('web', draft)).toEqual({});
    expect(editBody(web, draft)).toEqual({ source_id: 'site', type: 'web', kb: 'docs', interval_seconds: 3600,
      enabled: false, config: { start_urls: ['https://a.example/guide/'], path_prefix: '/guide/', max_pages: 80,
        max_depth: 2, skip_graph: true } });
    expect(Object.keys(validateEdit('web', { ...draft, startUrls: 'ftp://x', maxDepth: '99' })))
      .toEqual(['startUrls', 'maxDepth']);
    expect(validateEdit('filesystem', { ...draft, root: 'relative/path' }).root).toContain('absolute path');
  });

  it('keeps a glob with a brace group whole when its source is edited', () => {
    // Split at every comma, "*.{md,txt}" went as two invalid globs: refused, and the source could not be saved.
    const folder = { ...web, type: 'filesystem', config: { root: '/srv/docs', include: ['**/*.{md,txt}', 'a[,]b'],
      exclude: [] } };
    const draft = editDraft(folder);
    expect((editBody(folder, draft).config as { include: string[] }).include).toEqual(['**/*.{md,txt}', 'a[,]b']);
    expect(lines('*.md, *.txt\ndocs/**/*.{md,rst}')).toEqual(['*.md', '*.txt', 'docs/**/*.{md,rst}']);
  });
});
