/**
 * The administrators' dashboard (permissionType 1 and 2), loaded on demand. The service checks the
 * role on every call; the page also refuses to show anything to a role-0 user.
 */
import { type FormEvent, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import { Link, useLocation } from '#web/router.tsx';
import { ErrorNote, Field, Loading, STATUS_LABELS, Submit, useAction, useLoad, useSubmit } from '#web/ui.tsx';

const TABS = [
  ['queues', 'Hand-over queues'],
  ['orders', 'Orders'],
  ['reports', 'Reports'],
  ['statistics', 'Statistics'],
  ['users', 'Users'],
  ['audit', 'Audit log'],
  ['owner', 'Owner tools'],
] as const;

type Contact =
  paths['/api/dashboard/getBooksWithStatus/{status}']['get']['responses'][200]['content']['application/json']['data'][number]['owner'];

function ContactOf({ who, contact }: { who: string; contact: Contact }) {
  if (!contact) return <p>{who}: deleted user</p>;
  return (
    <p>
      {who}: {contact.firstName} {contact.lastName} ·{' '}
      <a href={`mailto:${contact.emailAddress}`}>{contact.emailAddress}</a> · mailbox {contact.campusMailbox}{' '}
      · pays with {contact.paymentUsername}
    </p>
  );
}

/** One queue; `moved()` tells the dashboard a book changed queue, so that every queue reloads. */
function Queue({ status, version, moved }: { status: 1 | 2 | 3; version: number; moved: () => void }) {
  const list = useLoad(
    () =>
      call(
        api.GET('/api/dashboard/getBooksWithStatus/{status}', {
          params: { path: { status: String(status) } },
        }),
      ),
    [status, version],
  );
  const act = useAction();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const move = (fn: () => Promise<unknown>) => act.run(fn).then((ok) => ok && moved());
  return (
    <section aria-labelledby={`q${status}-h`}>
      <h3 id={`q${status}-h`}>
        Status {status}: {STATUS_LABELS[status]}
      </h3>
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && <p>Empty.</p>}
      <ul className="books">
        {list.data?.map(({ book, owner, buyer }) => (
          <li key={book.id}>
            <article aria-label={book.name}>
              <h4>
                {book.name} · {money(book.price)}
              </h4>
              <ContactOf who="Seller" contact={owner} />
              <ContactOf who="Buyer" contact={buyer} />
              <p className="actions">
                {status === 1 && (
                  <button
                    type="button"
                    onClick={() =>
                      move(() => call(api.POST('/api/dashboard/confirmBook', { body: { bookId: book.id } })))
                    }
                  >
                    Confirm {book.name}
                  </button>
                )}
                {status === 2 && (
                  <button
                    type="button"
                    onClick={() =>
                      move(() => call(api.POST('/api/dashboard/setBookPaid', { body: { bookId: book.id } })))
                    }
                  >
                    Set {book.name} paid
                  </button>
                )}
              </p>
              {status !== 3 && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    move(() =>
                      call(
                        api.POST('/api/dashboard/cancelPurchase', {
                          body: { bookId: book.id, reason: reasons[book.id] ?? '' },
                        }),
                      ),
                    );
                  }}
                >
                  <Field
                    name="reason"
                    label={`Reason to cancel the purchase of ${book.name}`}
                    value={reasons[book.id] ?? ''}
                    onChange={(v) => setReasons((r) => ({ ...r, [book.id]: v }))}
                  />
                  <button type="submit" className="danger">
                    Cancel the purchase of {book.name}
                  </button>
                </form>
              )}
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Orders() {
  const list = useLoad(() => call(api.GET('/api/dashboard/getOrders')), []);
  return (
    <section aria-labelledby="orders-h">
      <h2 id="orders-h">Orders</h2>
      <ErrorNote error={list.error} />
      {list.data?.length === 0 && <p>No orders yet.</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Buyer</th>
            <th scope="col">Books</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.map((o) => (
            <tr key={o.id}>
              <td>{new Date(o.createdAt).toLocaleString()}</td>
              <td>{o.buyer ? `${o.buyer.firstName} ${o.buyer.lastName}` : 'deleted user'}</td>
              <td>{o.books.length}</td>
              <td>{money(o.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const REASONS: Record<string, string> = {
  spam: 'spam',
  prohibited: 'not allowed',
  'wrong-info': 'wrong information',
  offensive: 'offensive',
  other: 'other',
};

/** The moderation queue: reported books, most reported first; dismiss the reports or unlist the book. */
function Reports() {
  const list = useLoad(() => call(api.GET('/api/dashboard/getReports')), []);
  const act = useAction();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const resolve = (bookId: string, action: 'dismiss' | 'unlist') => {
    const reason = reasons[bookId]?.trim();
    return act
      .run(() =>
        call(
          api.POST('/api/dashboard/resolveReport', {
            body: { bookId, action, ...(reason ? { reason } : {}) },
          }),
        ),
      )
      .then((ok) => ok && list.reload());
  };
  return (
    <section aria-labelledby="reports-h">
      <h2 id="reports-h">Reported books</h2>
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && <p>No open reports.</p>}
      <ul className="books">
        {list.data?.map((r) => {
          const name = r.book?.name ?? 'A deleted book';
          return (
            <li key={r.bookId}>
              <article aria-label={name}>
                <h3>
                  {name} · {r.count} report{r.count === 1 ? '' : 's'}
                  {r.hidden ? ' · hidden from students' : ''}
                </h3>
                {r.book && (
                  <p>
                    {r.book.course} · {money(r.book.price)} · {STATUS_LABELS[r.book.status]}
                  </p>
                )}
                <ul>
                  {r.reports.map((x) => (
                    <li key={`${x.userId}-${x.at}`}>
                      {new Date(x.at).toLocaleString()}: {REASONS[x.reason] ?? x.reason}
                      {x.details ? `: ${x.details}` : ''}
                    </li>
                  ))}
                </ul>
                <Field
                  name="reason"
                  label={`Reason told to the seller of ${name} (optional)`}
                  value={reasons[r.bookId] ?? ''}
                  onChange={(v) => setReasons((all) => ({ ...all, [r.bookId]: v }))}
                />
                <p className="actions">
                  <button type="button" onClick={() => resolve(r.bookId, 'dismiss')} disabled={act.busy}>
                    Dismiss the reports on {name}
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => resolve(r.bookId, 'unlist')}
                    disabled={act.busy}
                  >
                    Unlist {name}
                  </button>
                </p>
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Suspend (with a reason) or reinstate one user; the service refuses what the caller may not do. */
function Suspension({
  user,
  done,
}: {
  user: { id: string; firstName: string };
  done: (said: string) => void;
}) {
  const [reason, setReason] = useState('');
  const suspend = useSubmit(async () => {
    const r = await call(api.PUT('/api/dashboard/suspendUser', { body: { userId: user.id, reason } }));
    done(`${user.firstName} is suspended; ${r.unlisted} listed books were unlisted.`);
  });
  const reinstate = useSubmit(async () => {
    await call(api.PUT('/api/dashboard/reinstateUser', { body: { userId: user.id } }));
    done(`${user.firstName} is reinstated.`);
  });
  const error = suspend.error ?? reinstate.error;
  const busy = suspend.busy || reinstate.busy;
  return (
    <form onSubmit={suspend.submit} className="inline">
      <Field
        name="reason"
        label={`Reason to suspend ${user.firstName}`}
        value={reason}
        onChange={setReason}
        error={error?.field('reason')}
      />
      <ErrorNote error={error} />
      <button type="submit" className="danger" disabled={busy}>
        Suspend {user.firstName}
      </button>
      <button type="button" onClick={() => reinstate.submit()} disabled={busy}>
        Reinstate {user.firstName}
      </button>
    </form>
  );
}

function Statistics() {
  const stats = useLoad(() => call(api.GET('/api/dashboard/getStatistics')), []);
  const s = stats.data;
  return (
    <section aria-labelledby="stats-h">
      <h2 id="stats-h">Statistics</h2>
      <ErrorNote error={stats.error} />
      {s && (
        <dl className="details">
          <dt>Users</dt>
          <dd>{s.totalUsers}</dd>
          <dt>Books</dt>
          <dd>{s.totalBooks}</dd>
          {([0, 1, 2, 3, 5] as const).map((k) => (
            <div key={k}>
              <dt>{STATUS_LABELS[k]}</dt>
              <dd>{s.booksByStatus[k]}</dd>
            </div>
          ))}
          <dt>Orders</dt>
          <dd>{s.totalOrders}</dd>
          <dt>Gross sales</dt>
          <dd>{money(s.grossSales)}</dd>
          <dt>Fees earned</dt>
          <dd>{money(s.feesEarned)}</dd>
        </dl>
      )}
    </section>
  );
}

function Users({ owner }: { owner: boolean }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const list = useLoad(
    () =>
      query
        ? call(api.GET('/api/dashboard/findUsers', { params: { query: { query } } }))
        : call(api.GET('/api/dashboard/getUsers')),
    [query],
  );
  const act = useAction();
  const [said, setSaid] = useState<string | null>(null);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery(text.trim());
  };
  const role = (userId: string, make: boolean) =>
    act
      .run(() =>
        make
          ? call(api.PUT('/api/dashboard/makeAdmin', { body: { userId } }))
          : call(api.PUT('/api/dashboard/revokeAdmin', { body: { userId } })),
      )
      .then((ok) => ok && list.reload());
  return (
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users</h2>
      <form onSubmit={search} className="search">
        <label htmlFor="user-q">Find by e-mail or name</label>
        <input id="user-q" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Find</button>
      </form>
      <ErrorNote error={list.error ?? act.error} />
      {said && <p role="status">{said}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            {owner && <th scope="col">Action</th>}
            <th scope="col">Suspension</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.map((u) => (
            <tr key={u.id}>
              <td>
                {u.firstName} {u.lastName}
              </td>
              <td>{u.emailAddress}</td>
              <td>{['student', 'admin', 'owner'][u.permissionType]}</td>
              {owner && (
                <td>
                  {u.permissionType === 0 && (
                    <button type="button" onClick={() => role(u.id, true)}>
                      Make {u.firstName} admin
                    </button>
                  )}
                  {u.permissionType === 1 && (
                    <button type="button" onClick={() => role(u.id, false)}>
                      Revoke admin of {u.firstName}
                    </button>
                  )}
                </td>
              )}
              <td>{u.permissionType < 2 && <Suspension user={u} done={setSaid} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Audit() {
  const log = useLoad(() => call(api.GET('/api/dashboard/getAuditLog')), []);
  return (
    <section aria-labelledby="audit-h">
      <h2 id="audit-h">Audit log</h2>
      <ErrorNote error={log.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.map((e) => (
            <tr key={e.id}>
              <td>{new Date(e.at).toLocaleString()}</td>
              <td>{e.actor}</td>
              <td>{e.action}</td>
              <td>
                {e.target.kind} {e.target.id}
              </td>
              <td>
                {JSON.stringify(e.before)} → {JSON.stringify(e.after)}
                {e.reason ? ` (${e.reason})` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function OwnerTools() {
  const [days, setDays] = useState('62');
  const [result, setResult] = useState<number | null>(null);
  const { error, busy, submit } = useSubmit(async () => {
    const r = await call(
      api.POST('/api/dashboard/deactivateBooks', { body: { olderThanDays: Number(days) } }),
    );
    setResult(r.unlisted);
  });
  return (
    <section aria-labelledby="owner-h">
      <h2 id="owner-h">Owner tools</h2>
      <form onSubmit={submit}>
        <Field
          name="olderThanDays"
          label="Unlist listed books older than this many days"
          type="number"
          min={1}
          value={days}
          onChange={setDays}
          error={error?.field('olderThanDays')}
        />
        <Submit error={error} busy={busy}>
          Unlist old books
        </Submit>
      </form>
      {result !== null && <p role="status">{result} books were unlisted.</p>}
    </section>
  );
}

export default function DashboardPage() {
  const { query } = useLocation();
  const level = useLoad(
    async () => (await call(api.GET('/api/dashboard/permissionLevel'))).permissionType,
    [],
  );
  const [version, setVersion] = useState(0);
  if (level.loading) return <Loading what="the dashboard" />;
  if ((level.data ?? 0) < 1)
    return (
      <section>
        <h1>Dashboard</h1>
        <p role="alert">
          The dashboard is for administrators. <Link href="/">Back to the books</Link>.
        </p>
      </section>
    );
  const owner = level.data === 2;
  const tab = TABS.find(([t]) => t === query.get('tab'))?.[0] ?? 'queues';
  return (
    <>
      <h1>Dashboard</h1>
      <nav aria-label="Dashboard">
        <ul className="tabs">
          {TABS.filter(([t]) => owner || t !== 'owner').map(([t, label]) => (
            <li key={t}>
              <Link href={`/dashboard?tab=${t}`} aria-current={tab === t ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'queues' && (
        <section aria-labelledby="queues-h">
          <h2 id="queues-h">Hand-over queues</h2>
          {([1, 2, 3] as const).map((status) => (
            <Queue key={status} status={status} version={version} moved={() => setVersion((v) => v + 1)} />
          ))}
        </section>
      )}
      {tab === 'orders' && <Orders />}
      {tab === 'reports' && <Reports />}
      {tab === 'statistics' && <Statistics />}
      {tab === 'users' && <Users owner={owner} />}
      {tab === 'audit' && <Audit />}
      {tab === 'owner' && owner && <OwnerTools />}
    </>
  );
}
