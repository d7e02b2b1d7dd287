/** The signed-in student's activity on the account page: listings, requests, sales and matches. */
import { useQuery } from '@tanstack/react-query';
import { money } from '#web/api.ts';
import { matchesQuery, statisticsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { Section } from '#web/ui/layout.tsx';
import { count } from '#web/ui/words.ts';

export function Activity() {
  const stats = useQuery(statisticsQuery);
  const matches = useQuery(matchesQuery);
  if (!stats.data) return null;
  return (
    <Section id="activity-h" title="Your activity">
      {/* each figure opens the page that lists what it counts */}
      <ul className="stats">
        <li>
          <Link href="/listings">{count(stats.data.activeListings, 'active listing')}</Link>
        </li>
        <li>
          <Link href="/requests">{count(stats.data.openRequests, 'open request')}</Link>
        </li>
        <li>
          <Link href="/orders">{count(stats.data.numberOfBooksBought, 'book bought', 'books bought')}</Link>
        </li>
        <li>
          <Link href="/orders">{count(stats.data.numberOfBooksSold, 'book sold', 'books sold')}</Link>
        </li>
        <li>{money(stats.data.moneyMade)} earned</li>
        <li>
          <Link href="/requests">
            {count(matches.data?.length ?? 0, 'book matches', 'books match')} your requests
          </Link>
        </li>
      </ul>
    </Section>
  );
}
