/** A book's photos as shown: the first one's thumbnail in lists, all of them on the book page. */

export type Photo = { id: string; url: string; thumbnailUrl: string };

/** The first photo's thumbnail: the book's picture in lists. */
export function Thumbnail({ name, photos }: { name: string; photos?: Photo[] | undefined }) {
  const first = photos?.[0];
  if (!first) return null;
  return <img className="thumb" src={first.thumbnailUrl} alt={`The book ${name}`} width={96} height={96} />;
}

/** A colour from a course's text, the same for every book of the course (a hue, dark enough for white text). */
export function courseHue(course: string): number {
  let h = 0;
  for (const c of course.toUpperCase()) h = (h * 31 + (c.codePointAt(0) ?? 0)) % 360;
  return h;
}

/** A generated cover for a book without a photo: its title and course on its course's colour. */
export function Cover({ name, course }: { name: string; course: string }) {
  return (
    <div className="cover" style={{ background: `hsl(${courseHue(course)} 45% 32%)` }} aria-hidden="true">
      <span className="cover-course">{course}</span>
      <span className="cover-title">{name}</span>
    </div>
  );
}

/** Every photo of a book, each linking to the full-size file. */
export function Gallery({ name, photos }: { name: string; photos?: Photo[] | undefined }) {
  if (!photos?.length) return null;
  return (
    <ul className="gallery">
      {photos.map((p, i) => (
        <li key={p.id}>
          <a href={p.url}>
            <img src={p.thumbnailUrl} alt={`${name}, view ${i + 1}`} width={160} height={160} />
          </a>
        </li>
      ))}
    </ul>
  );
}
