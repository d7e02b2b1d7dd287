/** The dashboard's read-mostly tabs: orders, statistics, audit log, and the owner's tool. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, money } from '#web/api.ts';
import {
  auditQuery,
  DASHBOARD_CHANGES,
  dashboardOrdersQuery,
  dashboardStatisticsQuery,
} from '#web/features/dashboard/queries.ts';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { Field, Form } from '#web/ui/form.tsx';
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

export function OwnerTools() {
  const { form, bind } = useFields({ olderThanDays: '62' });
  const [result, setResult] = useState<number | null>(null);
  const { error, busy, submit } = useSubmit(
    async () => {
      const r = await call(
        api.POST('/api/dashboard/deactivateBooks', { body: { olderThanDays: Number(form.olderThanDays) } }),
      );
      setResult(r.unlisted);
    },
    ...DASHBOARD_CHANGES,
  );
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
