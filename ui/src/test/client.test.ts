import { describe, expect, it } from 'vitest';
import { dispositionName, ok } from '../api/client';

describe('a download', () => {
  it('is saved under the name the server gives, not the document title', () => {
    expect(dispositionName("attachment; filename=\"q3.pdf\"; filename*=UTF-8''Q3%20r%C3%A9sum%C3%A9.pdf"))
      .toBe('Q3 résumé.pdf');
    expect(dispositionName('attachment; filename="annual.report.2023.pdf"')).toBe('annual.report.2023.pdf');
    expect(dispositionName("attachment; filename*=UTF-8''%E0%A4%A.pdf; filename=\"plain.pdf\"")).toBe('plain.pdf');
    expect(dispositionName(null)).toBeNull();
    expect(dispositionName('inline')).toBeNull();
  });
});

describe('a failed call', () => {
  it('names a proxy error page by its title, not its markup', async () => {
    const page = '<html><head><title>413 Request Entity Too Large</title></head><body><center>nginx</center></body>';
    await expect(ok(Promise.resolve({ error: page, response: new Response(null, { status: 413 }) })))
      .rejects.toThrow('HTTP 413 (413 Request Entity Too Large) from a proxy in front of the server');
    await expect(ok(Promise.resolve({ error: 'plain words', response: new Response(null, { status: 500 }) })))
      .rejects.toThrow('plain words');
  });
});
