/** A book's photos as shown: the first one's thumbnail in lists, all of them on the book page. */

export type Photo = { id: string; url: string; thumbnailUrl: string };

/** The first photo's thumbnail: the book's picture in lists. */
export function Thumbnail({ name, photos }: { name: string; photos?: Photo[] | undefined }) {
  const first = photos?.[0];
  if (!first) return null;
  return <img className="thumb" src={first.thumbnailUrl} alt={`The book ${name}`} width={96} height={96} />;
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
