/** The plain pages anyone can open: account confirmed, terms, privacy, page not found. */
import { useEffect, useState } from 'react';
import { forgetReturnTo, keptReturnTo, withNext } from '#web/return-to.ts';
import { Link } from '#web/router.tsx';
import { useSession } from '#web/session.ts';

/** After the e-mailed link: signed in already (the confirm page logs in), or a way to log in. */
export function EmailConfirmedPage() {
  const session = useSession();
  // the page the student signed up from (a book's "sign up"), kept by the sign-up: offered once
  const [back] = useState(keptReturnTo);
  useEffect(forgetReturnTo, []);
  return (
    <section>
      <h1>Your account is confirmed</h1>
      {session ? (
        <>
          <p>Welcome to Campus Books, {session.firstName}. You are logged in.</p>
          <p>
            {back && (
              <>
                <Link href={back}>Go back to where you signed up</Link> ·{' '}
              </>
            )}
            <Link href="/">Find books</Link> · <Link href="/sell">Sell a book</Link>
          </p>
        </>
      ) : (
        <p>
          Welcome to Campus Books. <Link href={withNext('/login', back)}>Log in</Link> to sell and buy books.
        </p>
      )}
    </section>
  );
}

/** A plain page the deployer edits: a title, its text, and where to edit it. */
function PlainPage({ title, children }: { title: string; children: string }) {
  return (
    <section>
      <h1>{title}</h1>
      <p>{children}</p>
      <p>
        The deployer of this site edits this page (web/src/features/public/plain-pages.tsx) with its own text.
      </p>
    </section>
  );
}

export function TermsPage() {
  return (
    <PlainPage title="Terms of use">
      Campus Books connects students who sell used textbooks with students who buy them. List only books you
      own, describe their condition honestly and hand them over as agreed. The service charges a fee of 5 % of
      each purchase. Administrators may unlist books and suspend accounts that break these terms.
    </PlainPage>
  );
}

export function PrivacyPage() {
  return (
    <PlainPage title="Privacy">
      We keep your name, university e-mail address, campus mailbox and payment username to arrange hand-overs
      and payments. Your mailbox and payment username are shown only to administrators who arrange a sale. The
      site stores your session in this browser tab only and uses no third-party scripts, fonts or trackers.
      When you report a listing, we keep a keyed hash of your mailbox with the report for 90 days (also after
      you delete your account), so that one person counts once; it does not reveal your address.
    </PlainPage>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to the books</Link>.
      </p>
    </section>
  );
}
