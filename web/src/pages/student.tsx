/** The signed-in student's pages: sell, listings, requests and matches, cart, orders, notifications, settings. */
import { useState } from 'react';
import { type ApiFailure, api, call, idempotencyKey, money } from '#web/api.ts';
import type { Book } from '#web/books.ts';
import { CONDITIONS } from '#web/browse.ts';
import { PhotoEditor } from '#web/photos.tsx';
import { Link } from '#web/router.tsx';
import { getSession, setSession } from '#web/session.ts';
import {
  ActionButton,
  Amounts,
  BookList,
  ErrorNote,
  Field,
  Form,
  type Loaded,
  Loading,
  Progress,
  passwordField,
  Section,
  Submit,
  useAction,
  useFields,
  useLoad,
  useSubmit,
} from '#web/ui.tsx';

export function SellPage() {
  const empty = { name: '', edition: '1', course: '', price: '', condition: 'good', comments: '', ISBN: '' };
  const { form, bind, reset } = useFields(empty);
  const [posted, setPosted] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(async () => {
    const book = await call(
      api.POST('/api/books/postBook', {
        body: {
          name: form.name,
          edition: Number(form.edition),
          course: form.course,
          price: Number(form.price),
          condition: form.condition,
          comments: form.comments,
          ISBN: form.ISBN.trim() ? form.ISBN : null,
        },
      }),
    );
    setPosted(book.name);
    reset();
  });
  return (
    <section>
      <h1>Sell a book</h1>
      {posted && (
        <p role="status">
          “{posted}” is listed. See it in <Link href="/listings">my listings</Link>.
        </p>
      )}
      <Form onSubmit={submit} noValidate error={error} busy={busy} button="List the book">
        <Field {...bind('name', error)} label="Title" required />
        <Field {...bind('edition', error)} label="Edition" type="number" min={1} required />
        <Field {...bind('course', error)} label="Course (e.g. CSC 171)" required />
        <Field
          {...bind('price', error)}
          label="Price in dollars"
          type="number"
          min={0}
          step="0.01"
          required
        />
        <Field {...bind('condition', error)} label="Condition" options={CONDITIONS} />
        <Field {...bind('ISBN', error)} label="ISBN (optional)" />
        <Field {...bind('comments', error)} label="Comments (optional)" multiline />
      </Form>
    </section>
  );
}

type Listing = Awaited<ReturnType<typeof loadListings>>[number];
const loadListings = () => call(api.GET('/api/books/getUsersPosts'));

function ListingEditor({ book, done }: { book: Listing; done: () => void }) {
  const { form, bind } = useFields({
    price: String(book.price),
    condition: book.condition as string,
    comments: book.comments,
  });
  const {
    error,
    busy,
    submit: save,
  } = useSubmit(async () => {
    await call(
      api.POST('/api/books/updateBook', {
        body: {
          bookId: book.id,
          price: Number(form.price),
          condition: form.condition,
          comments: form.comments,
        },
      }),
    );
    done();
  });
  return (
    <form onSubmit={save} aria-label={`Edit ${book.name}`}>
      <Field {...bind('price', error)} label="Price" type="number" step="0.01" />
      <Field
        {...bind('condition', error)}
        label="Condition"
        options={CONDITIONS.includes(form.condition) ? CONDITIONS : [form.condition, ...CONDITIONS]}
      />
      <Field {...bind('comments', error)} label="Comments" multiline />
      <Submit error={error} busy={busy}>
        Save
      </Submit>
      <button type="button" onClick={done}>
        Cancel
      </button>
    </form>
  );
}

export function ListingsPage() {
  const list = useLoad(loadListings, []);
  const [editing, setEditing] = useState<string | null>(null);
  const act = useAction(list.reload);
  return (
    <section>
      <h1>My listings</h1>
      <p>
        <Link href="/sell">Sell another book</Link>
      </p>
      {list.loading && !list.data && <Loading what="your listings" />}
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && <p>You have no listings.</p>}
      <BookList books={list.data} status inactive={(b) => b.status === 5}>
        {(b) => (
          <>
            {(b.status === 0 || b.status === 5) && <PhotoEditor book={b} changed={list.reload} />}
            {editing === b.id ? (
              <ListingEditor
                book={b}
                done={() => {
                  setEditing(null);
                  list.reload();
                }}
              />
            ) : (
              <p className="actions">
                <button type="button" onClick={() => setEditing(b.id)}>
                  Edit {b.name}
                </button>
                {b.status === 0 ? (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/books/deleteBook', { body: { bookId: b.id } }))}
                  >
                    Unlist {b.name}
                  </ActionButton>
                ) : (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/books/reactivateBook', { body: { bookId: b.id } }))}
                  >
                    Relist {b.name}
                  </ActionButton>
                )}
                <ActionButton
                  act={act}
                  action={() =>
                    call(api.POST('/api/books/deleteBook', { body: { bookId: b.id, permanent: true } }))
                  }
                  confirm={`Delete “${b.name}” for good?`}
                  className="danger"
                >
                  Delete {b.name} for good
                </ActionButton>
              </p>
            )}
          </>
        )}
      </BookList>
    </section>
  );
}

export function RequestsPage() {
  const requests = useLoad(() => call(api.GET('/api/user/getRequests')), []);
  const matches = useLoad(() => call(api.GET('/api/books/getUserMatches')), []);
  const empty = { name: '', course: '', edition: '', ISBN: '' };
  const { form, bind, reset } = useFields(empty);
  const del = useAction(requests.reload);
  const add = useSubmit(async () => {
    await call(
      api.POST('/api/books/requestBook', {
        body: {
          name: form.name,
          course: form.course,
          ...(form.edition ? { edition: Number(form.edition) } : {}),
          ...(form.ISBN.trim() ? { ISBN: form.ISBN } : {}),
        },
      }),
    );
    reset();
    requests.reload();
    matches.reload();
  });
  return (
    <>
      <h1>My requests and matches</h1>
      <Section id="req-h" title="Ask for a book">
        <Form onSubmit={add.submit} noValidate error={add.error} busy={add.busy} button="Add the request">
          <Field {...bind('name', add.error)} label="Title" required />
          <Field {...bind('course', add.error)} label="Course" required />
          <Field {...bind('edition', add.error)} label="Edition (optional)" type="number" />
          <Field {...bind('ISBN', add.error)} label="ISBN (optional)" />
        </Form>
        <ErrorNote error={requests.error ?? del.error} />
        <ul>
          {requests.data?.map((r) => (
            <li key={r.id}>
              {r.name} · {r.course}
              {r.edition ? ` · edition ${r.edition}` : ''}{' '}
              <ActionButton
                act={del}
                action={() => call(api.POST('/api/user/deleteRequest', { body: { requestId: r.id } }))}
              >
                Delete the request for {r.name}
              </ActionButton>
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="match-h"
        title="Books that match"
        loaded={matches}
        empty="No matches yet: we notify you when one is listed."
      >
        <BookList books={matches.data}>
          {(b) => <Link href={`/books/${encodeURIComponent(b.id)}`}>Details of {b.name}</Link>}
        </BookList>
      </Section>
    </>
  );
}

/** A 409 at checkout names the books that were taken. */
function takenBooks(error: ApiFailure | undefined, names: Map<string, string>): string[] {
  if (error?.status !== 409) return [];
  return (error.body?.details ?? []).flatMap((d) => {
    const id = typeof d.bookId === 'string' ? d.bookId : undefined;
    return id ? [`${names.get(id) ?? 'A book'}: ${d.message}`] : [];
  });
}

export function CartPage() {
  const cart = useLoad(() => call(api.GET('/api/user/getCartItems')), []);
  const act = useAction(cart.reload);
  const checkout = useAction();
  // One key per checkout attempt: a retry after a lost answer returns the same order.
  const [key, setKey] = useState(idempotencyKey);
  const [order, setOrder] = useState<{ id: string; subtotal: number; fee: number; total: number } | null>(
    null,
  );
  const items = cart.data?.items ?? [];
  const names = new Map(items.map((b) => [b.id, b.name]));
  const available = items.filter((b) => b.available);
  const buy = async () => {
    const ok = await checkout.run(async () => {
      setOrder(
        await call(api.POST('/api/books/checkoutCart', { params: { header: { 'Idempotency-Key': key } } })),
      );
    });
    setKey(idempotencyKey());
    if (!ok) cart.reload();
  };
  if (order)
    return (
      <section>
        <h1>Thank you for your order</h1>
        <Amounts amounts={order} />
        <p>
          An administrator checks each book at the hand-over; follow it in{' '}
          <Link href="/orders">purchases</Link>.
        </p>
      </section>
    );
  const taken = takenBooks(checkout.error, names);
  return (
    <section>
      <h1>Cart</h1>
      {cart.loading && !cart.data && <Loading what="your cart" />}
      <ErrorNote error={cart.error ?? act.error} />
      {/* Outside the buy block: when the only book was taken, the reloaded cart has nothing left to buy. */}
      {checkout.error && (
        <div role="alert" className="error">
          <p>
            {checkout.error.status === 409
              ? 'Some books were taken before you checked out:'
              : checkout.error.message}
          </p>
          {taken.length > 0 && (
            <ul>
              {taken.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {cart.data && items.length === 0 && (
        <p>
          Your cart is empty. <Link href="/">Find books</Link>.
        </p>
      )}
      <BookList books={items} inactive={(b) => !b.available}>
        {(b) => (
          <>
            {!b.available && <p className="tag">No longer available</p>}
            <ActionButton
              act={act}
              action={() => call(api.POST('/api/user/removeFromCart', { body: { bookId: b.id } }))}
            >
              Remove {b.name}
            </ActionButton>
          </>
        )}
      </BookList>
      {available.length > 0 && (
        <>
          <p>
            {available.length} book{available.length === 1 ? '' : 's'} to buy. The service adds a 5 % fee; the
            subtotal, fee and total are confirmed when you check out.
          </p>
          {cart.data && <Amounts amounts={cart.data} />}
          <p className="actions">
            <button type="button" onClick={buy} disabled={checkout.busy}>
              Check out
            </button>
            <ActionButton act={act} action={() => call(api.POST('/api/user/clearCart'))}>
              Empty the cart
            </ActionButton>
          </p>
        </>
      )}
    </section>
  );
}

function ProgressList({ id, title, books }: { id: string; title: string; books: Loaded<Book[]> }) {
  return (
    <Section id={id} title={title} loaded={books} empty="Nothing yet.">
      <BookList books={books.data} status>
        {(b) => <Progress status={b.status} />}
      </BookList>
    </Section>
  );
}

export function OrdersPage() {
  const orders = useLoad(() => call(api.GET('/api/user/getOrders')), []);
  const bought = useLoad(() => call(api.GET('/api/user/getPurchasedBooks')), []);
  const sold = useLoad(() => call(api.GET('/api/user/getSoldBooks')), []);
  return (
    <>
      <h1>Purchases and sales</h1>
      <Section id="orders-h" title="My orders" loaded={orders} empty="No orders yet.">
        <ul>
          {orders.data?.map((o) => (
            <li key={o.id}>
              <Link href={`/orders/${encodeURIComponent(o.id)}`}>
                Order of {new Date(o.createdAt ?? '').toLocaleDateString()}:{' '}
                {o.books.map((b) => b.name).join(', ')}
              </Link>{' '}
              · {money(o.total)}
            </li>
          ))}
        </ul>
      </Section>
      <ProgressList id="bought-h" title="Books I bought" books={bought} />
      <ProgressList id="sold-h" title="Books I sold" books={sold} />
    </>
  );
}

export function NotificationsPage() {
  const list = useLoad(
    () => call(api.GET('/api/user/getNotifications', { params: { query: { limit: '50' } } })),
    [],
  );
  const act = useAction(list.reload);
  const mark = (ids?: string[]) =>
    act.run(() => call(api.POST('/api/user/markNotificationsRead', { body: ids ? { ids } : {} })));
  return (
    <section>
      <h1>Notifications</h1>
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && <p>No notifications.</p>}
      {list.data?.some((n) => !n.read) && (
        <button type="button" onClick={() => mark()}>
          Mark all as read
        </button>
      )}
      <ul className="notifications">
        {list.data?.map((n) => (
          <li key={n.id} className={n.read ? 'read' : 'unread'}>
            <p>
              {n.read ? '' : <strong>New: </strong>}
              {n.message} <small>{new Date(n.date).toLocaleString()}</small>
            </p>
            {!n.read && (
              <button type="button" onClick={() => mark([n.id])}>
                Mark as read
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function SettingsPage() {
  const user = useLoad(() => call(api.GET('/api/user/getUserData')), []);
  return (
    <>
      <h1>Settings</h1>
      <ErrorNote error={user.error} />
      <p>
        <Link href="/preferences">E-mail preferences</Link> · <Link href="/my-data">Your data</Link> ·{' '}
        <Link href="/delete-account">Delete your account</Link>
      </p>
      {user.data && <ProfileForm user={user.data} />}
      <PasswordForm />
    </>
  );
}

type ProfileFields = {
  firstName: string;
  lastName: string;
  university: string;
  campusMailbox: string;
  paymentUsername: string;
};

function ProfileForm({ user }: { user: ProfileFields & { emailAddress: string } }) {
  const { form, bind } = useFields<ProfileFields>({
    firstName: user.firstName,
    lastName: user.lastName,
    university: user.university,
    campusMailbox: user.campusMailbox,
    paymentUsername: user.paymentUsername,
  });
  const save = useSubmit(() => call(api.POST('/api/auth/updateProfile', { body: form })));
  const labels: Record<keyof ProfileFields, string> = {
    firstName: 'First name',
    lastName: 'Last name',
    university: 'University',
    campusMailbox: 'Campus mailbox',
    paymentUsername: 'Payment username',
  };
  return (
    <Section id="profile-h" title="Profile">
      <p>E-mail: {user.emailAddress}</p>
      <form onSubmit={save.submit} noValidate>
        {(Object.keys(labels) as (keyof ProfileFields)[]).map((k) => (
          <Field key={k} {...bind(k, save.error)} label={labels[k]} />
        ))}
        <ErrorNote error={save.error} />
        {save.done && <p role="status">Saved.</p>}
        <button type="submit" disabled={save.busy}>
          Save the profile
        </button>
      </form>
    </Section>
  );
}

function PasswordForm() {
  const { form, bind, reset } = useFields({ password: '', newPassword: '' });
  const {
    error,
    busy,
    done: saved,
    submit,
  } = useSubmit(async () => {
    const { token } = await call(api.POST('/api/auth/updatePassword', { body: form }));
    const s = getSession();
    if (s) setSession({ ...s, token });
    reset();
  });
  return (
    <Section id="pw-h" title="Password">
      <form onSubmit={submit} noValidate>
        <Field {...passwordField('Current password', 'current')} {...bind('password', error)} />
        <Field {...passwordField('New password', 'new', 'newPassword')} {...bind('newPassword', error)} />
        <ErrorNote error={error} />
        {saved && <p role="status">Password changed; other sessions have ended.</p>}
        <button type="submit" disabled={busy}>
          Change the password
        </button>
      </form>
    </Section>
  );
}
