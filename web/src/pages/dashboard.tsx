/**
 * The administrators' dashboard (permissionType 1 and 2), loaded on demand. The service checks the
 * role on every call; the page also refuses to show anything to a role-0 user.
 */
import { type FormEvent, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import { Link, useLocation } from '#web/router.tsx';
import {
  ActionButton,
  ErrorNote,
  Field,
  Form,
  Loading,
  Section,
  STATUS_LABELS,
  Table,
  useAction,
  useFields,
  useLoad,
  useSubmit,
} from '#web/ui.tsx';

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
  const act = useAction(moved);
  const [reasons, setReasons] = useState<Record<string, string>>({});
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
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/dashboard/confirmBook', { body: { bookId: book.id } }))}
                  >
                    Confirm {book.name}
                  </ActionButton>
                )}
                {status === 2 && (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/dashboard/setBookPaid', { body: { bookId: book.id } }))}
                  >
                    Set {book.name} paid
                  </ActionButton>
                )}
              </p>
              {status !== 3 && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    act.run(() =>
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
    <Section id="orders-h" title="Orders" loaded={list} empty="No orders yet.">
      <Table
        label="Orders"
        rows={list.data}
        columns={{
          Date: (o) => new Date(o.createdAt).toLocaleString(),
          Buyer: (o) => (o.buyer ? `${o.buyer.firstName} ${o.buyer.lastName}` : 'deleted user'),
          Books: (o) => o.books.length,
          Total: (o) => money(o.total),
        }}
      />
    </Section>
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
  const act = useAction(list.reload);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const resolve = (bookId: string, action: 'dismiss' | 'unlist') => {
    const reason = reasons[bookId]?.trim();
    const body = { bookId, action, ...(reason ? { reason } : {}) };
    return act.run(() => call(api.POST('/api/dashboard/resolveReport', { body })));
  };
  return (
    <Section id="reports-h" title="Reported books" loaded={list} error={act.error} empty="No open reports.">
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
    </Section>
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
    <Section id="stats-h" title="Statistics" loaded={stats}>
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
    </Section>
  );
}

type User =
  paths['/api/dashboard/getUsers']['get']['responses'][200]['content']['application/json']['data'][number];

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
  const act = useAction(list.reload);
  const [said, setSaid] = useState<string | null>(null);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery(text.trim());
  };
  const role = (userId: string, make: boolean) =>
    act.run(() =>
      make
        ? call(api.PUT('/api/dashboard/makeAdmin', { body: { userId } }))
        : call(api.PUT('/api/dashboard/revokeAdmin', { body: { userId } })),
    );
  return (
    <Section id="users-h" title="Users">
      <form onSubmit={search} className="search">
        <label htmlFor="user-q">Find by e-mail or name</label>
        <input id="user-q" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Find</button>
      </form>
      <ErrorNote error={list.error ?? act.error} />
      {said && <p role="status">{said}</p>}
      <Table
        label="Users"
        rows={list.data}
        columns={{
          Name: (u) => `${u.firstName} ${u.lastName}`,
          'E-mail': (u) => u.emailAddress,
          Role: (u) => ['student', 'admin', 'owner'][u.permissionType],
          ...(owner && {
            Action: (u: User) =>
              u.permissionType === 0 ? (
                <button type="button" onClick={() => role(u.id, true)}>
                  Make {u.firstName} admin
                </button>
              ) : (
                u.permissionType === 1 && (
                  <button type="button" onClick={() => role(u.id, false)}>
                    Revoke admin of {u.firstName}
                  </button>
                )
              ),
          }),
          Suspension: (u) => u.permissionType < 2 && <Suspension user={u} done={setSaid} />,
        }}
      />
    </Section>
  );
}

function Audit() {
  const log = useLoad(() => call(api.GET('/api/dashboard/getAuditLog')), []);
  return (
    <Section id="audit-h" title="Audit log" loaded={log}>
      <Table
        label="Audit log"
        rows={log.data}
        columns={{
          When: (e) => new Date(e.at).toLocaleString(),
          Who: (e) => e.actor,
          Action: (e) => e.action,
          Target: (e) => `${e.target.kind} ${e.target.id}`,
          Change: (e) => (
            <>
              {JSON.stringify(e.before)} → {JSON.stringify(e.after)}
              {e.reason ? ` (${e.reason})` : ''}
            </>
          ),
        }}
      />
    </Section>
  );
}

function OwnerTools() {
  const { form, bind } = useFields({ olderThanDays: '62' });
  const [result, setResult] = useState<number | null>(null);
  const { error, busy, submit } = useSubmit(async () => {
    const r = await call(
      api.POST('/api/dashboard/deactivateBooks', { body: { olderThanDays: Number(form.olderThanDays) } }),
    );
    setResult(r.unlisted);
  });
  return (
    <Section id="owner-h" title="Owner tools">
      <Form onSubmit={submit} error={error} busy={busy} button="Unlist old books">
        <Field
          {...bind('olderThanDays', error)}
          label="Unlist listed books older than this many days"
          type="number"
          min={1}
        />
      </Form>
      {result !== null && <p role="status">{result} books were unlisted.</p>}
    </Section>
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
