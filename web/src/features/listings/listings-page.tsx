/** `/listings`: the seller's books: edit, unlist, relist, delete for good, photos. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '#web/api.ts';
import { ListingEditor } from '#web/features/listings/listing-editor.tsx';
import { PhotoEditor } from '#web/features/listings/photo-editor.tsx';
import { keys, listingsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { BookList } from '#web/ui/books.tsx';
import { ActionButton, ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { Hidden, Loading } from '#web/ui/layout.tsx';

export function ListingsPage() {
  const list = useQuery(listingsQuery);
  const [editing, setEditing] = useState<string | null>(null);
  const act = useAction(keys.listings, keys.books, keys.statistics);
  return (
    <section>
      <h1>My listings</h1>
      <p>
        <Link href="/sell">Sell another book</Link>
      </p>
      {list.isPending && <Loading what="your listings" />}
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && (
        <p>
          You have no listings. Books you sold are under <Link href="/orders">Orders</Link>.
        </p>
      )}
      <BookList books={list.data} status inactive={(b) => b.status === 5}>
        {(b) => (
          <>
            {(b.status === 0 || b.status === 5) && <PhotoEditor book={b} />}
            {editing === b.id ? (
              <ListingEditor book={b} done={() => setEditing(null)} />
            ) : (
              <p className="actions">
                <button type="button" onClick={() => setEditing(b.id)}>
                  Edit<Hidden> {b.name}</Hidden>
                </button>
                {b.status === 0 ? (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/books/deleteBook', { body: { bookId: b.id } }))}
                    confirm={`Unlist “${b.name}”? Buyers no longer see it; you can relist it here.`}
                    className="secondary"
                  >
                    Unlist<Hidden> {b.name}</Hidden>
                  </ActionButton>
                ) : (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/books/reactivateBook', { body: { bookId: b.id } }))}
                  >
                    Relist<Hidden> {b.name}</Hidden>
                  </ActionButton>
                )}
                <ActionButton
                  act={act}
                  action={() =>
                    call(api.POST('/api/books/deleteBook', { body: { bookId: b.id, permanent: true } }))
                  }
                  confirm={`Delete “${b.name}” for good?`}
                  className="secondary danger"
                >
                  Delete for good<Hidden> ({b.name})</Hidden>
                </ActionButton>
              </p>
            )}
          </>
        )}
      </BookList>
    </section>
  );
}
