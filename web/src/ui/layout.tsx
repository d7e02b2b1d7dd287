/** Page layout pieces: a titled section, a scrolling table, a time, the loading line. */
import type { ReactNode } from 'react';
import type { ApiFailure } from '#web/api.ts';
import { ErrorNote } from '#web/ui/form.tsx';
import { exactText, whenText } from '#web/ui/when.ts';

/**
 * A section under an `h2` that `id` names, showing what it `loaded`: its error (else `error`, of an
 * action taken in the section), `empty` when it is an empty list, then the rest.
 */
export function Section({
  id,
  title,
  loaded,
  error,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  loaded?: { data?: unknown; error?: ApiFailure | null };
  error?: ApiFailure | undefined;
  /** said when the list read is empty; best with the next step's link (no dead ends) */
  empty?: ReactNode;
  children?: ReactNode;
}) {
  const data = loaded?.data;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {/* a read's refusal names its filter's problem ("The first day comes after the last one.") */}
      <ErrorNote error={loaded?.error ?? error} withDetails={Boolean(loaded?.error)} />
      {loaded && data === undefined && !loaded.error && (
        <Skeletons what={typeof title === 'string' ? title.toLowerCase() : 'this part'} />
      )}
      {Array.isArray(data) && data.length === 0 && <p>{empty}</p>}
      {children}
    </section>
  );
}

/**
 * A table with a column for each entry of `columns` (its heading, and its cell of a row), a row
 * for each of `rows`. On a phone each row is a card, every cell under its column's name (the
 * `data-label` the style sheet shows); wider screens get the table, which scrolls inside its own
 * region, named "`label` table", which keyboard users can focus and scroll (WCAG 2.1.1; axe's
 * scrollable-region-focusable).
 */
export function Table<T extends { id: string }>({
  label,
  rows,
  columns,
}: {
  label: string;
  rows: T[] | undefined;
  columns: Record<string, (row: T) => ReactNode>;
}) {
  const cells = Object.entries(columns);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section className="table-scroll" aria-label={`${label} table`} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {cells.map(([heading]) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={row.id}>
              {cells.map(([heading, cell]) => (
                <td key={heading} data-label={heading}>
                  {cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A paged list's button for its next page (`readPages` in queries.ts): there while one is left. */
export function MoreButton({
  list,
  children,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  children: ReactNode;
}) {
  if (!list.hasNextPage) return null;
  return (
    <button
      type="button"
      className="more"
      onClick={() => list.fetchNextPage()}
      disabled={list.isFetchingNextPage}
    >
      {children}
    </button>
  );
}

/**
 * Words for a screen reader only: what a short visible label is about (a button "Edit" is "Edit
 * Calculus" to a screen reader), so a phone's card is not filled with the book's title five times.
 */
export function Hidden({ children }: { children: ReactNode }) {
  return <span className="visually-hidden">{children}</span>;
}

/** Grey placeholders in the shape of `rows` list items while `what` loads (announced once, politely). */
export function Skeletons({ what, rows = 3 }: { what: string; rows?: number }) {
  return (
    <div aria-busy="true">
      <p className="visually-hidden" aria-live="polite">
        Loading {what}…
      </p>
      {Array.from({ length: rows }, (_, i) => `skeleton-${i}`).map((id) => (
        <span key={id} className="skeleton" />
      ))}
    </div>
  );
}

/** Grey card shapes where a grid of books is about to appear, with the same words for a screen reader. */
export function CardSkeletons({ what, count = 4 }: { what: string; count?: number }) {
  return (
    <div aria-live="polite">
      <p className="visually-hidden">Loading {what}…</p>
      <ul className="books grid skeletons" aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <li key={i} className="skeleton" />
        ))}
      </ul>
    </div>
  );
}

/** When something happened, said short ("5 min ago", "Yesterday"), with the exact time as its title. */
export function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={exactText(at)}>
      {whenText(at)}
    </time>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-live="polite">Loading {what}…</p>;
}
