/** The dashboard's read-mostly tabs: orders, statistics, audit log, and the owner's tool. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import {
  auditQuery,
  DASHBOARD_CHANGES,
  dashboardOrdersQuery,
  dashboardStatisticsQuery,
} from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { ErrorNote, Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';
import { Section, Table } from '#web/ui/layout.tsx';

export function Orders() {
  const list = useQuery(dashboardOrdersQuery);
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

export function Statistics() {
  const stats = useQuery(dashboardStatisticsQuery);
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

export function Audit() {
  const log = useQuery(auditQuery);
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
          <h3 id="unlist-preview-h">Unlist old books?</h3>
          <p role="status">
            {count} {shown.count === 1 && !shown.more ? 'book' : 'books'} listed before{' '}
            {shown.cutoff.slice(0, 10)} would be unlisted. Nothing has changed yet.
          </p>
          {shown.sample.length > 0 && (
            <>
              <p>The oldest of them:</p>
              <ul>
                {shown.sample.map((b) => (
                  <li key={b.id}>
                    <Link href={`/books/${encodeURIComponent(b.id)}`}>{b.name}</Link> ({b.course}), listed{' '}
                    {b.date.slice(0, 10)} by {b.owner.firstName}
                  </li>
                ))}
              </ul>
            </>
          )}
          {shown.count > 0 && (
            <p className="actions">
              <button type="button" className="danger" disabled={run.busy} onClick={() => run.submit()}>
                Unlist these {count} books
              </button>{' '}
              <button type="button" onClick={() => setPreview(null)}>
                Keep them listed
              </button>
            </p>
          )}
          <ErrorNote error={run.error} />
        </section>
      )}
      {result !== null && <p role="status">{result} books were unlisted.</p>}
    </Section>
  );
}
