/** The signed-in student's activity above the books: listings, requests, sales and matches. */
import { api, call, money } from '#web/api.ts';
import { Link } from '#web/router.tsx';
import { useLoad } from '#web/ui/hooks.ts';
import { Section } from '#web/ui/layout.tsx';

export function Activity() {
  const stats = useLoad(() => call(api.GET('/api/user/getUserStatistics')), []);
  const matches = useLoad(() => call(api.GET('/api/books/getUserMatches')), []);
  if (!stats.data) return null;
  return (
    <Section id="home-h" title="Your activity">
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
