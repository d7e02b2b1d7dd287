/**
 * The one place that says which cover pictures a book may carry (issue 33, item 2): the ISBN
 * lookup's cover, kept with the book and shown as its picture until the seller adds photos. A
 * cover URL is stored and later put in an `<img src>` of every reader's page, so postBook takes
 * only Open Library's cover images: https, this one host, a `/b/<isbn|id|olid>/<token>-<S|M|L>.jpg`
 * path and nothing else (no port, user, query or fragment). The web app's CSP names the same
 * origin in `img-src` (web/src/csp.ts `COVER_ORIGIN`; tests/unit/books/cover-url.test.ts holds the
 * two equal).
 */

/** Open Library's cover host: the only origin a book's cover is shown from. */
export const COVER_ORIGIN = 'https://covers.openlibrary.org';

/** Longer than any cover URL the pattern admits: a bound checked before the pattern. */
export const MAX_COVER_URL_LENGTH = 200;

const escaped = COVER_ORIGIN.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The whole URL, anchored: origin, then `/b/<key kind>/<token>-<size>.jpg`. */
export const COVER_URL_PATTERN = new RegExp(`^${escaped}/b/(?:isbn|id|olid)/[A-Za-z0-9]{1,40}-[SML]\\.jpg$`);

export const COVER_URL_MESSAGE = `A cover must be an Open Library cover image, such as ${COVER_ORIGIN}/b/isbn/9780262510875-L.jpg.`;

/** Whether `url` is a cover the app stores and shows. */
export const isCoverUrl = (url: string): boolean =>
  url.length <= MAX_COVER_URL_LENGTH && COVER_URL_PATTERN.test(url);
