/** The dashboard's read-mostly tabs: orders, audit log, and the owner's tool (statistics: statistics.tsx). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import { courseText } from '#web/books.ts';
import {
  type AuditFilter,
  auditQuery,
  DASHBOARD_CHANGES,
  dashboardOrdersQuery,
} from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { ErrorNote, Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';
import { MoreButton, Section, Table } from '#web/ui/layout.tsx';
import { dayText, exactText } from '#web/ui/when.ts';

type OrderBook =
  paths['/api/dashboard/getOrders']['get']['responses'][200]['content']['application/json']['data'][number]['books'][number];

/** Where an ordered book stands, in words. */
const bookState = (b: OrderBook): string =>
  b.cancelled
    ? 'purchase cancelled'
    : b.status === null
      ? 'deleted since'
      : (STATUS_LABELS[b.status] ?? '').toLowerCase();

/** Every order, newest first, a page at a time; each book with its seller and where it stands. */
export function Orders() {
  const list = useInfiniteQuery(dashboardOrdersQuery);
  return (
    <Section id="orders-h" title="Orders" loaded={list} empty="No orders yet.">
      <Table
        label="Orders"
        rows={list.data}
        columns={{
          Date: (o) => exactText(o.createdAt),
          Buyer: (o) => (o.buyer ? `${o.buyer.firstName} ${o.buyer.lastName}` : 'deleted user'),
          Books: (o) => (
            <ul className="plain">
              {o.books.map((b) => (
                <li key={b.id}>
                  {b.status === null ? (
                    b.name
                  ) : (
                    <Link href={`/books/${encodeURIComponent(b.id)}`}>{b.name}</Link>
                  )}
                  {' from '}
                  {b.owner ? `${b.owner.firstName} ${b.owner.lastName}` : 'a deleted user'}: {bookState(b)}
                </li>
              ))}
            </ul>
          ),
          Total: (o) => money(o.total),
        }}
      />
      <MoreButton list={list}>Older orders</MoreButton>
    </Section>
  );
}

type AuditEntry =
  paths['/api/dashboard/getAuditLog']['get']['responses'][200]['content']['application/json']['data'][number];
type AuditAction = AuditEntry['action'];

/** Each recorded action in words. */
const ACTIONS: Record<AuditAction, string> = {
  confirmBook: 'checked a book (buyer charged)',
  setBookPaid: 'handed a book over (seller paid)',
  cancelPurchase: 'cancelled a purchase',
  makeAdmin: 'made an admin',
  revokeAdmin: 'revoked an admin',
  unlistBook: 'unlisted a book',
  reportBook: 'reported a book',
  resolveReport: 'resolved a report',
  resolveMessageReport: 'closed a message report',
  suspendUser: 'suspended a user',
  reinstateUser: 'reinstated a user',
  readConversation: 'read a conversation',
  reportMessage: 'reported a message',
  putHandoverPoint: 'saved a hand-over point',
  removeHandoverPoint: 'removed a hand-over point',
  remindStuckPurchase: 'reminded a stuck purchase',
};

/** What changed, readably: `status 1 → 2`, one line per field that was written. */
function changeOf(e: AuditEntry): string {
  const fields = [...new Set([...Object.keys(e.before), ...Object.keys(e.after)])];
  const shown = (v: unknown) => (v === undefined || v === null ? '–' : String(v));
  const lines = fields
    .filter((f) => e.before[f] !== e.after[f])
    .map((f) => `${f} ${shown(e.before[f])} → ${shown(e.after[f])}`);
  return [...lines, ...(e.reason ? [`reason: ${e.reason}`] : [])].join('; ');
}

/**
 * The audit log with names, narrowed by action and days, and to one person by tapping their name;
 * every filter is a bounded read on the service (GET /api/dashboard/getAuditLog, docs/dashboard.md).
 */
export function Audit() {
  const [filter, setFilter] = useState<AuditFilter>({});
  const [who, setWho] = useState<string | null>(null);
  const log = useInfiniteQuery(auditQuery(filter));
  const set = (k: 'action' | 'from' | 'to', v: string) => {
    const { [k]: _gone, ...rest } = filter;
    setFilter(v ? { ...rest, [k]: v } : rest);
  };
  return (
    <Section id="audit-h" title="Audit log" loaded={log} empty="Nothing recorded matches these filters.">
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <select value={filter.action ?? ''} onChange={(e) => set('action', e.target.value)}>
            <option value="">Every action</option>
            {(Object.keys(ACTIONS) as AuditAction[]).map((a) => (
              <option key={a} value={a}>
                {ACTIONS[a]}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={filter.from ?? ''} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={filter.to ?? ''} onChange={(e) => set('to', e.target.value)} />
        </label>
        {filter.actor && (
          <button
            type="button"
            onClick={() => {
              const { actor: _gone, ...rest } = filter;
              setFilter(rest);
              setWho(null);
            }}
          >
            Show everyone (now only {who})
          </button>
        )}
      </form>
      <Table
        label="Audit log"
        rows={log.data}
        columns={{
          When: (e) => exactText(e.at),
          Who: (e) =>
            filter.actor ? (
              e.actorName
            ) : (
              // the name itself narrows the log to that person; its accessible name says so
              <button
                type="button"
                className="link"
                aria-label={`${e.actorName}: show only their entries`}
                title="Show only their entries"
                onClick={() => {
                  setFilter({ ...filter, actor: e.actor });
                  setWho(e.actorName);
                }}
              >
                {e.actorName}
              </button>
            ),
          Action: (e) => ACTIONS[e.action],
          Target: (e) =>
            e.target.kind === 'book' ? (
              <Link href={`/books/${encodeURIComponent(e.target.id)}`}>
                {e.targetName ?? 'a removed book'}
              </Link>
            ) : (
              (e.targetName ?? `${e.target.kind} ${e.target.id}`)
            ),
          Change: (e) => changeOf(e),
        }}
      />
      <MoreButton list={log}>Older entries</MoreButton>
    </Section>
  );
}

type Preview = Extract<
  paths['/api/dashboard/deactivateBooks']['post']['responses'][200]['content']['application/json']['data'],
  { dryRun: true }
>;

/**
 * "Unlist old books" in two steps: the dry run first shows how many listings (and the oldest few)
 * would be unlisted, and only "Unlist these N books" makes the real call. Changing the age drops
 * the preview, so what is confirmed is always what was shown.
 */
export function OwnerTools() {
  const { form, bind } = useFields({ olderThanDays: '62' });
  const [preview, setPreview] = useState<{ days: number; found: Preview } | null>(null);
  const [result, setResult] = useState<number | null>(null);
  const days = Number(form.olderThanDays);
  const shown = preview && preview.days === days ? preview.found : null;
  const look = useSubmit(async () => {
    setResult(null);
    const r = await call(
      api.POST('/api/dashboard/deactivateBooks', { body: { olderThanDays: days, dryRun: true } }),
    );
    if ('dryRun' in r) setPreview({ days, found: r });
  });
  const run = useSubmit(
    async () => {
      const r = await call(api.POST('/api/dashboard/deactivateBooks', { body: { olderThanDays: days } }));
      if ('unlisted' in r) setResult(r.unlisted);
      setPreview(null);
    },
    ...DASHBOARD_CHANGES,
  );
  const count = shown ? `${shown.more ? 'More than ' : ''}${shown.count}` : '';
  const one = shown?.count === 1 && !shown.more;
  return (
    <Section id="owner-h" title="Owner tools">
      <Form onSubmit={look.submit} error={look.error} busy={look.busy} button="Preview old books">
        <Field
          {...bind('olderThanDays', look.error)}
          label="Unlist listed books older than this many days"
          type="number"
          min={1}
        />
      </Form>
      {shown && (
        <section aria-labelledby="unlist-preview-h" className="preview">
          <h3 id="unlist-preview-h">{shown.count > 0 ? 'Unlist old books?' : 'No old books'}</h3>
          <p role="status">
            {shown.count > 0
              ? `${count} ${one ? 'book' : 'books'} listed before ${dayText(shown.cutoff)} would be unlisted. Nothing has changed yet.`
              : `No book listed before ${dayText(shown.cutoff)} is still listed: there is nothing to unlist.`}
          </p>
          {shown.sample.length > 0 && (
            <>
              <p>The oldest of them:</p>
              <ul>
                {shown.sample.map((b) => (
                  <li key={b.id}>
                    <Link href={`/books/${encodeURIComponent(b.id)}`}>{b.name}</Link> ({courseText(b.course)}
                    ), listed {dayText(b.date)} by {b.owner.firstName}
                  </li>
                ))}
              </ul>
            </>
          )}
          {shown.count > 0 && (
            <p className="actions">
              <button type="button" className="danger" disabled={run.busy} onClick={() => run.submit()}>
                {one ? 'Unlist this book' : `Unlist these ${count} books`}
              </button>{' '}
              <button type="button" onClick={() => setPreview(null)}>
                Keep them listed
              </button>
            </p>
          )}
          <ErrorNote error={run.error} />
        </section>
      )}
      {result !== null && (
        <StatusLine key={result}>
          {result === 1 ? '1 book was unlisted.' : `${result} books were unlisted.`}
        </StatusLine>
      )}
    </Section>
  );
}
