/** The signed-in student's activity on the account page: listings, requests, sales and matches. */
import { useQuery } from '@tanstack/react-query';
import { money } from '#web/api.ts';
import { matchesQuery, statisticsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { Section } from '#web/ui/layout.tsx';

export function Activity() {
  const stats = useQuery(statisticsQuery);
  const matches = useQuery(matchesQuery);
  if (!stats.data) return null;
  return (
    <Section id="activity-h" title="Your activity">
      <ul className="stats">
        <li>{stats.data.activeListings} active listings</li>
        <li>{stats.data.openRequests} open requests</li>
        <li>{stats.data.numberOfBooksBought} books bought</li>
        <li>{stats.data.numberOfBooksSold} books sold</li>
        <li>{money(stats.data.moneyMade)} earned</li>
        <li>
          <Link href="/requests">{matches.data?.length ?? 0} books match your requests</Link>
        </li>
      </ul>
    </Section>
  );
}
