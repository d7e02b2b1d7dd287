/** `/books/{id}`: one book with its photos (or its looked-up cover), add to cart, and the report form. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, bookPrice, call } from '#web/api.ts';
import { conditionName, courseText } from '#web/books.ts';
import { ReportForm } from '#web/features/book/report-form.tsx';
import { bookQuery, keys } from '#web/queries.ts';
import { withNext } from '#web/return-to.ts';
import { Link } from '#web/router.tsx';
import { useSession } from '#web/session.ts';
import { AskSeller, HANDOVER_QUESTION } from '#web/ui/ask-seller.tsx';
import { ErrorNote, StatusLine } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { Loading, When } from '#web/ui/layout.tsx';
import { Gallery } from '#web/ui/photos.tsx';
import { SaveButton } from '#web/ui/save-button.tsx';
import { ShareBook } from '#web/ui/share-book.tsx';

export function BookPage({ id }: { id: string }) {
  const session = useSession();
  const loaded = useQuery(bookQuery(id));
  // The book is read again after it is added: it then says it is in the cart.
  const cart = useAction(keys.cart, keys.books, keys.statistics);
  // after "Add to cart" the focus goes to the line saying it is in the cart
  const [added, setAdded] = useState(false);
  const book = loaded.data;
  if (!book)
    return (
      <section>
        <h1>Book</h1>
        {loaded.isPending ? (
          <Loading what="the book" />
        ) : (
          <p>
            {loaded.error?.status === 404
              ? 'This book is not listed any more: someone bought it, or its seller took it down.'
              : loaded.error?.message}{' '}
            <Link href="/">Find other books</Link>
            {session && loaded.error?.status === 404 && (
              <>
                {' '}
                or <Link href="/requests">ask for this one</Link>: we tell you when a copy is listed
              </>
            )}
            .
          </p>
        )}
      </section>
    );
  // the seller's own book: nothing to buy, save, ask or report (QA: "Add to cart" on one's own book)
  const mine = session?.userId === book.owner.id;
  const listed = book.status === 0;
  // a bought book is shown to its buyer and seller (and admins): with the way to its order's page
  const bought = !listed && session !== null && book.buyer?.id === session.userId;
  const order = book.orderId && `/orders/${encodeURIComponent(book.orderId)}`;
  return (
    <section>
      <h1>{book.name}</h1>
      {/* on a wide screen the photos and the facts side by side (styles.css .book-main) */}
      <div className="book-main">
        <div className="book-photos">
          <Gallery name={book.name} course={book.course} photos={book.photos} coverUrl={book.coverUrl} />
        </div>
        <div className="book-facts">
          {mine &&
            (order ? (
              <p>
                You sold this book: <Link href={order}>see the sale and its hand-over</Link>.
              </p>
            ) : (
              <p>
                Your book: <Link href="/listings">edit it, or add or retry its photos, in my listings</Link>.
              </p>
            ))}
          {bought && order && (
            <p>
              You bought this book: <Link href={order}>see your order and its hand-over</Link>.
            </p>
          )}
          {/* what a buyer decides on first, then what they do: the facts follow (a marketplace's order) */}
          <p className="book-price">
            <span className="price">{bookPrice(book.price)}</span> · {conditionName(book.condition)}
          </p>
          <div className="actions">
            {!session ? (
              <p>
                {/* a visitor from a shared link has no account yet: both ways come back here */}
                <Link href={withNext('/login', `/books/${book.id}`)}>Log in</Link> or{' '}
                <Link href={withNext('/signup', `/books/${book.id}`)}>sign up</Link> to buy it or ask the
                seller.
              </p>
            ) : mine ? null : book.inCart ? (
              <StatusLine focus={added}>
                In your cart. <Link href="/cart">Go to the cart</Link>.
              </StatusLine>
            ) : (
              book.status === 0 && (
                <button
                  type="button"
                  disabled={cart.busy}
                  onClick={() =>
                    cart
                      .run(() => call(api.POST('/api/user/addToCart', { body: { bookId: book.id } })))
                      .then(setAdded)
                  }
                >
                  Add to cart
                </button>
              )
            )}
            {/* beside Add to cart, as on a card */}
            {session && book.status === 0 && !mine && <SaveButton bookId={book.id} name={book.name} />}
          </div>
          <ErrorNote error={cart.error} />
          {/* anyone may pass a listed book on: the seller to a class chat, a buyer to a friend */}
          {listed && <ShareBook id={book.id} name={book.name} />}
          {/* the seller of a listed book answers anyone; of a bought one, its buyer only */}
          {session && !mine && listed && <AskSeller bookId={book.id} seller={book.owner.firstName} />}
          {bought && (
            <AskSeller
              bookId={book.id}
              seller={book.owner.firstName}
              summary={`Write to ${book.owner.firstName}`}
              text={HANDOVER_QUESTION}
            />
          )}
          <dl className="details">
            {book.author && (
              <>
                <dt>Author</dt>
                <dd>{book.author}</dd>
              </>
            )}
            <dt>Edition</dt>
            <dd>{book.edition}</dd>
            <dt>Course</dt>
            <dd>{courseText(book.course)}</dd>
            {book.ISBN && (
              <>
                <dt>ISBN</dt>
                <dd>{book.ISBN}</dd>
              </>
            )}
            <dt>Seller</dt>
            <dd>{book.owner.firstName}</dd>
            <dt>Listed</dt>
            <dd>
              <When at={book.date} />
            </dd>
            {book.comments && (
              <>
                <dt>Comments</dt>
                <dd className="pre">{book.comments}</dd>
              </>
            )}
          </dl>
          {/* only a listed book can be reported (the API answers 404 for any other) */}
          {session && !mine && listed && <ReportForm book={book} />}
        </div>
      </div>
    </section>
  );
}
