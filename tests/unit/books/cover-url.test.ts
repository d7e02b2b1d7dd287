/** The cover URL allow-list (lib/books/cover-url.ts) and the web app's CSP name the same one host. */
import { describe, expect, it } from 'vitest';
import { COVER_ORIGIN, isCoverUrl } from '#lib/books/cover-url.ts';
import { toSourceBook } from '#lib/books/open-library.ts';
import { contentSecurityPolicy, COVER_ORIGIN as WEB_COVER_ORIGIN } from '#web/csp.ts';

describe('cover URLs', () => {
  it('come from the one origin the CSP lets images load from', () => {
    expect(WEB_COVER_ORIGIN).toBe(COVER_ORIGIN);
    const imgSrc = contentSecurityPolicy()
      .split('; ')
      .find((d) => d.startsWith('img-src '));
    expect(imgSrc?.split(' ')).toContain(COVER_ORIGIN);
  });

  it('are Open Library cover images by ISBN, cover id or edition id, in a size', () => {
    for (const ok of [
      `${COVER_ORIGIN}/b/isbn/9780262510875-L.jpg`,
      `${COVER_ORIGIN}/b/isbn/026251087X-M.jpg`,
      `${COVER_ORIGIN}/b/id/240727-S.jpg`,
      `${COVER_ORIGIN}/b/olid/OL7353617M-L.jpg`,
    ])
      expect(isCoverUrl(ok), ok).toBe(true);
    for (const bad of [
      'http://covers.openlibrary.org/b/id/1-L.jpg',
      'https://COVERS.openlibrary.org/b/id/1-L.jpg',
      'https://coversXopenlibrary.org/b/id/1-L.jpg',
      `${COVER_ORIGIN}/b/id/1-XL.jpg`,
      `${COVER_ORIGIN}/b/id/1-L.jpg\n`,
      `${COVER_ORIGIN}/b/id/1%2F..-L.jpg`,
      `${COVER_ORIGIN}/b/id/${'1'.repeat(41)}-L.jpg`,
      `${COVER_ORIGIN}/b/ID/1-L.jpg`,
    ])
      expect(isCoverUrl(bad), bad).toBe(false);
  });

  it('are all the ISBN lookup keeps of an entry’s covers', () => {
    const cover = (large: string) => toSourceBook({ title: 'A', cover: { large } }).coverUrl;
    expect(cover('http://covers.openlibrary.org/b/id/1-L.jpg')).toBe(
      'https://covers.openlibrary.org/b/id/1-L.jpg',
    );
    expect(cover('https://example.org/b/id/1-L.jpg')).toBeNull();
    expect(cover('https://covers.openlibrary.org/b/id/1-L.jpg?default=false')).toBeNull();
  });
});
