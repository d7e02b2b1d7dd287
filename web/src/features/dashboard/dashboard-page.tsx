/**
 * The administrators' dashboard (permissionType 1 and 2), loaded on demand. The service checks the
 * role on every call; the page also refuses to show anything to a role-0 user.
 */
import { useQuery } from '@tanstack/react-query';
import { AdminConversation } from '#web/features/dashboard/conversation.tsx';
import { TodaysHandovers } from '#web/features/dashboard/handovers.tsx';
import { HandoverPoints } from '#web/features/dashboard/points.tsx';
import { Queue } from '#web/features/dashboard/queues.tsx';
import { MessageReports, Reports } from '#web/features/dashboard/reports.tsx';
import { Statistics } from '#web/features/dashboard/statistics.tsx';
import { Audit, Orders, OwnerTools } from '#web/features/dashboard/tables.tsx';
import { Users } from '#web/features/dashboard/users.tsx';
import { levelQuery } from '#web/queries.ts';
import { Link, useLocation } from '#web/router.tsx';
import { Loading } from '#web/ui/layout.tsx';

const TABS = [
  ['queues', 'Hand-over queues'],
  ['today', "Today's hand-overs"],
  ['points', 'Hand-over points'],
  ['orders', 'Orders'],
  ['reports', 'Reports'],
  ['statistics', 'Statistics'],
  ['users', 'Users'],
  ['audit', 'Audit log'],
  ['owner', 'Owner tools'],
] as const;

export default function DashboardPage() {
  const { query } = useLocation();
  const level = useQuery(levelQuery);
  if (level.isPending) return <Loading what="the dashboard" />;
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
  // a conversation opened from the queue, today's hand-overs or a report (audited on the service)
  const conversation = query.get('conversation');
  const tab = conversation ? null : (TABS.find(([t]) => t === query.get('tab'))?.[0] ?? 'queues');
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
      {conversation && <AdminConversation id={conversation} />}
      {tab === 'queues' && (
        <section aria-labelledby="queues-h">
          <h2 id="queues-h">Hand-over queues</h2>
          {([1, 2, 3] as const).map((status) => (
            <Queue key={status} status={status} />
          ))}
        </section>
      )}
      {tab === 'today' && <TodaysHandovers />}
      {tab === 'points' && <HandoverPoints />}
      {tab === 'orders' && <Orders />}
      {tab === 'reports' && (
        <>
          <Reports />
          <MessageReports />
        </>
      )}
      {tab === 'statistics' && <Statistics />}
      {tab === 'users' && <Users owner={owner} />}
      {tab === 'audit' && <Audit />}
      {tab === 'owner' && owner && <OwnerTools />}
    </>
  );
}
