/**
 * `/requests`: the student's requests (add, delete) and the books that match them. The ISBN comes
 * first: a whole one is looked up (web/src/ui/isbn-lookup.tsx, as on the Sell form) and fills the
 * title and edition left empty, and says what copies sold for.
 */

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, call } from '#web/api.ts';
import { courseText, squashCourse } from '#web/books.ts';
import { prefillFrom } from '#web/prefill.ts';
import { keys, matchesQuery, requestsQuery } from '#web/queries.ts';
import { Link, useLocation } from '#web/router.tsx';
import { BookList } from '#web/ui/books.tsx';
import { AddToCart } from '#web/ui/cart-button.tsx';
import { ActionButton, Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useAction, useFields, useSubmit } from '#web/ui/hooks.ts';
import { LookupNote, useIsbnLookup } from '#web/ui/isbn-lookup.tsx';
import { Hidden, Section } from '#web/ui/layout.tsx';
import { SaveButton } from '#web/ui/save-button.tsx';

export function RequestsPage() {
  const requests = useQuery(requestsQuery);
  // A new request is matched against the books already listed a moment later (the stream
  // consumer): the matches are read again every 2 s for 20 s after one, so one that exists shows
  // up without a reload (QA: "No matches yet" while a match existed).
  const [watching, setWatching] = useState(0);
  useEffect(() => {
    if (!watching) return;
    const stop = setTimeout(() => setWatching(0), 20_000);
    return () => clearTimeout(stop);
  }, [watching]);
  const matches = useQuery({ ...matchesQuery, refetchInterval: watching ? 2000 : false });
  // an empty search's "Request this book" fills in what was searched (/requests?name=|course=|ISBN=)
  const { query } = useLocation();
  const empty = { edition: '', ...prefillFrom(query) };
  const { form, bind, reset, update } = useFields(empty);
  const lookup = useIsbnLookup(form.ISBN, update, (f, book) => ({
    ...f,
    name: f.name.trim() ? f.name : book.title.slice(0, 200),
    edition: f.edition.trim() || !book.edition ? f.edition : String(book.edition),
  }));
  // A request added or deleted changes the requests, the matches and the open-requests count.
  const changes = [keys.requests, keys.matches, keys.statistics];
  const del = useAction(...changes);
  // the result of the last action, focused, in the section where it was taken (the button pressed
  // may be gone: a deleted request's)
  const [said, setSaid] = useState<{ text: string; by: 'add' | 'delete' } | null>(null);
  const add = useSubmit(
    async () => {
      setSaid(null);
      await call(
        api.POST('/api/books/requestBook', {
          body: {
            name: form.name,
            course: form.course,
            ...(form.edition ? { edition: Number(form.edition) } : {}),
            ...(form.ISBN.trim() ? { ISBN: form.ISBN } : {}),
          },
        }),
      );
      setSaid({
        by: 'add',
        text: `Request added: books already listed show below as they are found, and we tell you when “${form.name.trim()}” is listed.`,
      });
      setWatching(Date.now());
      reset();
    },
    ...changes,
  );
  // the books found are what a student with requests comes back for: first once there are any,
  // unless a search's "Request this book" brought them here to ask (the form, filled in, leads).
  // Decided once, when the matches are first read, so a match the watch finds while the student is
  // on the page shows in its section where that section is, and nothing moves under them.
  const asking = Object.values(prefillFrom(query)).some(Boolean);
  const order = useRef<boolean | null>(null);
  if (order.current === null && matches.data) order.current = matches.data.length > 0 && !asking;
  const matchesFirst = order.current ?? false;
  const found = (
    <Section
      id="match-h"
      title="Books that match"
      loaded={matches}
      empty="No matches yet: we notify you when one is listed."
    >
      <BookList books={matches.data}>
        {(b) => (
          <>
            {/* which request it answers, and how close it is: a course match may be another book */}
            <p className="muted">{matchedBecause(b, requests.data ?? [])}</p>
            {/* what a student found a wanted book for: to buy it, or keep an eye on it, here */}
            <div className="actions">
              <AddToCart bookId={b.id} name={b.name} inCart={b.inCart} changes={[keys.matches]} />
              <SaveButton bookId={b.id} name={b.name} />
            </div>
            <p>
              <Link href={`/books/${encodeURIComponent(b.id)}`}>Details of {b.name}</Link>
            </p>
          </>
        )}
      </BookList>
    </Section>
  );
  return (
    <>
      <h1>My requests and matches</h1>
      {matchesFirst && found}
      <Section id="req-h" title="Ask for a book">
        <Form onSubmit={add.submit} noValidate error={add.error} busy={add.busy} button="Add the request">
          <Field
            {...bind('ISBN', add.error)}
            label="ISBN (optional)"
            hint="Type the ISBN from your reading list, and the title fills itself in."
          />
          <LookupNote lookup={lookup} />
          <Field {...bind('name', add.error)} label="Title" required />
          <Field {...bind('course', add.error)} label="Course" required />
          <Field {...bind('edition', add.error)} label="Edition (optional)" type="number" />
        </Form>
        {said?.by === 'add' && <StatusLine key={said.text}>{said.text}</StatusLine>}
      </Section>
      <Section
        id="mine-h"
        title="Your requests"
        loaded={requests}
        error={del.error}
        empty="None yet: ask for a book above, and we tell you when it is listed."
      >
        {said?.by === 'delete' && <StatusLine key={said.text}>{said.text}</StatusLine>}
        <ul className="requests">
          {requests.data?.map((r) => (
            <li key={r.id}>
              <span className="request-words">
                {r.name} · {courseText(r.course)}
                {r.edition ? ` · edition ${r.edition}` : ''}
              </span>{' '}
              <ActionButton
                act={del}
                action={async () => {
                  await call(api.POST('/api/user/deleteRequest', { body: { requestId: r.id } }));
                  setSaid({ by: 'delete', text: `The request for “${r.name}” is deleted.` });
                }}
                confirm={`Delete your request for “${r.name}”? We stop telling you when it is listed.`}
                className="secondary"
              >
                Delete<Hidden> the request for {r.name}</Hidden>
              </ActionButton>
            </li>
          ))}
        </ul>
        {/* so a request that went away after a purchase is not a surprise (lib/matching/answered.ts) */}
        {(requests.data?.length ?? 0) > 0 && (
          <p className="muted">A request closes by itself when you buy the book it asks for.</p>
        )}
      </Section>
      {!matchesFirst && found}
    </>
  );
}

/** Why a book is among the matches, in words: the request it answers, and what they share. */
function matchedBecause(
  book: { name: string; ISBN: string | null; course: string; edition: number; requestIds: string[] },
  requests: Array<{
    id: string;
    name: string;
    course: string;
    edition?: number | null;
    ISBN?: string | null;
  }>,
): string {
  const request = requests.find((r) => book.requestIds.includes(r.id));
  if (!request) return 'Matches one of your requests.';
  const digits = (s: string | null | undefined) => (s ?? '').replace(/[^0-9X]/gi, '');
  const words = (t: string) =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const have = new Set(words(book.name));
  const sameTitle = words(request.name).every((w) => have.has(w));
  const why =
    request.ISBN && digits(request.ISBN) === digits(book.ISBN)
      ? 'the same ISBN'
      : squashCourse(request.course) === squashCourse(book.course)
        ? sameTitle
          ? `the same course (${courseText(book.course)}) and title`
          : `the same course (${courseText(book.course)}), another title: check it is the book you need`
        : 'the words of its title';
  const edition =
    request.edition && request.edition !== book.edition
      ? ` It is edition ${book.edition}; you asked for edition ${request.edition}.`
      : '';
  return `For your request “${request.name}”: ${why}.${edition}`;
}
