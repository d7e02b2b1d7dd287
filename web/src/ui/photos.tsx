/**
 * A book's photos as shown: the first one's thumbnail in lists, all of them on the book page. A
 * book without photos shows the cover its ISBN lookup found (`coverUrl`, only from the CSP's cover
 * host), else a generated cover; the seller's photos, once added, always win.
 */
import { type ReactNode, useState } from 'react';
import { courseText } from '#web/books.ts';
import { COVER_ORIGIN } from '#web/csp.ts';

export type Photo = { id: string; url: string; mediumUrl: string; thumbnailUrl: string };

/** Whether a book's cover URL is one the page may show: on the cover host the CSP names. */
function fromCoverHost(url: string | undefined): url is string {
  try {
    return url !== undefined && new URL(url).origin === COVER_ORIGIN;
  } catch {
    return false;
  }
}

/** Where a looked-up cover is shown: its class and the fixed size of its box. */
const COVER_BOXES = {
  thumb: { className: 'thumb book-cover', width: 96, height: 96 },
  card: { className: 'card-image book-cover', width: 240, height: 240 },
  page: { className: 'book-cover', width: 160, height: 240 },
} as const;

/**
 * The looked-up cover of a book without photos, lazily loaded in a box of fixed size (no layout
 * shift), or `fallback` when there is none, it is not from the cover host, or it does not load.
 */
function LookedUpCover({
  name,
  url,
  box,
  fallback = null,
}: {
  name: string;
  url: string | undefined;
  box: keyof typeof COVER_BOXES;
  fallback?: ReactNode;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!fromCoverHost(url) || failed === url) return fallback;
  return (
    <img
      {...COVER_BOXES[box]}
      src={url}
      alt={`Cover of ${name}`}
      loading="lazy"
      onError={() => setFailed(url)}
    />
  );
}

/** A book's pictures: its photos, and the cover its ISBN lookup found. */
type Pictures = { name: string; photos?: Photo[] | undefined; coverUrl?: string | undefined };

/**
 * The first photo's thumbnail (else the looked-up cover, else with a course the generated cover the
 * book's card shows, small): the book's picture in lists.
 */
export function Thumbnail({ name, photos, coverUrl, course }: Pictures & { course?: string }) {
  const first = photos?.[0];
  if (!first)
    return (
      <LookedUpCover
        name={name}
        url={coverUrl}
        box="thumb"
        fallback={course === undefined ? null : <GeneratedCover name={name} course={course} small />}
      />
    );
  return <img className="thumb" src={first.thumbnailUrl} alt={`The book ${name}`} width={96} height={96} />;
}

/** A colour from a course's text, the same for every book of the course (a hue, dark enough for white text). */
export function courseHue(course: string): number {
  let h = 0;
  for (const c of course.toUpperCase()) h = (h * 31 + (c.codePointAt(0) ?? 0)) % 360;
  return h;
}

/**
 * The picture of a book without a photo: the looked-up cover, else a generated one (its title and
 * course on its course's colour).
 */
export function Cover({
  name,
  course,
  coverUrl,
}: {
  name: string;
  course: string;
  coverUrl?: string | undefined;
}) {
  return (
    <LookedUpCover
      name={name}
      url={coverUrl}
      box="card"
      fallback={<GeneratedCover name={name} course={course} />}
    />
  );
}

/** A generated cover: the title and course on its course's colour (decoration: the page names both). */
function GeneratedCover({ name, course, small = false }: { name: string; course: string; small?: boolean }) {
  const shown = courseText(course);
  return (
    <div
      className={small ? 'cover thumb' : 'cover'}
      style={{ background: `hsl(${courseHue(shown)} 45% 32%)` }}
      aria-hidden="true"
    >
      <span className="cover-course">{shown}</span>
      <span className="cover-title">{name}</span>
    </div>
  );
}

/**
 * The files of a book page's lead photo by width, for a phone and (from 48rem) a wide screen: the
 * browser takes the smallest that is sharp at the screen's density, the thumbnail on a plain phone,
 * the 800 px rendition on a dense one, the 1600 px photo only on a dense wide screen.
 */
export const leadSources = (p: Photo) => ({
  phone: { srcSet: `${p.thumbnailUrl} 320w, ${p.mediumUrl} 800w`, sizes: '20rem' },
  wide: { media: '(min-width: 48rem)', srcSet: `${p.mediumUrl} 800w, ${p.url} 1600w`, sizes: '28rem' },
});

/**
 * Every photo of a book, each linking to the full-size file; without photos, the looked-up cover,
 * else the generated cover its card shows (the same colour, so the page reads as that card opened).
 */
export function Gallery({ name, course, photos, coverUrl }: Pictures & { course: string }) {
  if (!photos?.length)
    return fromCoverHost(coverUrl) ? (
      <figure className="page-cover">
        <LookedUpCover name={name} url={coverUrl} box="page" />
        <figcaption className="muted">Cover from Open Library</figcaption>
      </figure>
    ) : (
      <div className="page-cover">
        <GeneratedCover name={name} course={course} />
      </div>
    );
  return (
    <ul className="gallery">
      {photos.map((p, i) =>
        i === 0 ? (
          // the first photo leads, as wide as a phone allows (20rem; 28rem on a wide screen)
          <li key={p.id} className="lead">
            <a href={p.url}>
              <picture>
                <source {...leadSources(p).wide} />
                <img
                  className="photo-lead"
                  src={p.thumbnailUrl}
                  {...leadSources(p).phone}
                  alt={`${name}, view 1`}
                  width={320}
                  height={320}
                  fetchPriority="high"
                />
              </picture>
            </a>
          </li>
        ) : (
          <li key={p.id}>
            <a href={p.url}>
              <img
                className="photo-small"
                src={p.thumbnailUrl}
                alt={`${name}, view ${i + 1}`}
                width={160}
                height={160}
              />
            </a>
          </li>
        ),
      )}
    </ul>
  );
}
