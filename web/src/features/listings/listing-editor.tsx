/**
 * The form that edits every field of one of the seller's unsold books (issue 32, item 4): the Sell
 * page's fields, plain checks and body (web/src/ui/book-fields.tsx), sent to updateBook. A buyer
 * who carted the book before the change is asked to look again at checkout (409).
 */
import type { FormEvent } from 'react';
import { api, call } from '#web/api.ts';
import type { Listing } from '#web/books.ts';
import { keys } from '#web/queries.ts';
import { BookFields, bookBody, bookFormOf, useBookForm } from '#web/ui/book-fields.tsx';
import { Submit } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';

export function ListingEditor({ book, done }: { book: Listing; done: () => void }) {
  const edited = useBookForm(bookFormOf(book), book.price === 0);
  const { error, busy, submit } = useSubmit(
    async () => {
      // only what changed: an ISBN sent takes the looked-up cover off (it was the old ISBN's)
      const body = edited.body();
      const was = bookBody(bookFormOf(book), book.price === 0);
      const changed = Object.fromEntries(
        Object.entries(body).filter(([k, v]) => v !== was[k as keyof typeof was]),
      );
      if (Object.keys(changed).length > 0)
        await call(api.POST('/api/books/updateBook', { body: { bookId: book.id, ...changed } }));
      done();
    },
    keys.listings,
    keys.books,
  );
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (edited.check()) void submit();
  };
  return (
    <form onSubmit={save} noValidate aria-label={`Edit ${book.name}`}>
      <BookFields book={edited} error={error} />
      <Submit error={error} busy={busy}>
        Save
      </Submit>
      <button type="button" className="secondary cancel-edit" onClick={done}>
        Cancel
      </button>
    </form>
  );
}
