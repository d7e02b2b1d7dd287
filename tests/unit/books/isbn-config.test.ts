import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#lib/config.ts';

const deployed = {
  STAGE: 'prod',
  TABLE_NAME: 'campus-books-prod',
  PUBLIC_URL: 'https://books.example.edu',
  MAIL_FROM: 'Campus Books <no-reply@books.example.edu>',
};

describe('ISBN_LOOKUP_URL', () => {
  it('points the emulated stages at the Open Library stand-in and deployed ones at Open Library', async () => {
    expect((await loadConfig({ STAGE: 'local' })).ISBN_LOOKUP_URL).toBe('http://127.0.0.1:8010');
    expect((await loadConfig({ STAGE: 'test', ISBN_LOOKUP_URL: '' })).ISBN_LOOKUP_URL).toBe(
      'http://127.0.0.1:8010',
    );
    expect((await loadConfig(deployed)).ISBN_LOOKUP_URL).toBe('https://openlibrary.org');
    expect(
      (await loadConfig({ ...deployed, ISBN_LOOKUP_URL: 'https://books.proxy.example.edu/ol' }))
        .ISBN_LOOKUP_URL,
    ).toBe('https://books.proxy.example.edu/ol');
  });

  it.each(['openlibrary.org', 'ftp://openlibrary.org', 'not a url'])(
    'refuses %j at start-up, naming the variable',
    async (value) => {
      const loading = loadConfig({ ...deployed, ISBN_LOOKUP_URL: value });
      await expect(loading).rejects.toBeInstanceOf(ConfigError);
      await expect(loading).rejects.toThrow(/ISBN_LOOKUP_URL/);
    },
  );
});
