/**
 * A stand-in for Open Library's Books API, for `npm start` and the tests (there is no internet
 * here): `GET /api/books?bibkeys=ISBN:<isbn>[,ISBN:<isbn>...]&jscmd=data&format=json` answers as
 * Open Library does, an object keyed by each bibkey it knows, as asked (ISBN-10 or 13), and `{}`
 * for none; the books are scripts/local/isbn-fixtures.ts, one of them answered slowly.
 *
 * `GET /__standin/calls` answers how many Books API calls asked for each ISBN-13 since start, so a
 * test can prove a cached lookup made no second outbound call.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toIsbn13 } from '#lib/books/isbn.ts';
import {
  FIXTURE_BOOKS,
  FIXTURE_ISBNS,
  type FixtureBook,
  openLibraryEntry,
  SLOW_DELAY_MS,
} from './isbn-fixtures.ts';

export interface RunningIsbnStandin {
  url: string;
  stop: () => Promise<void>;
}

/** The path of the call counts (not part of Open Library's API). */
export const STANDIN_CALLS_PATH = '/__standin/calls';

const byIsbn13 = new Map<string, FixtureBook>(FIXTURE_BOOKS.map((b) => [b.isbn13, b]));

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Starts the stand-in on 127.0.0.1:`port` (0: any free port). */
export async function startIsbnStandin(port: number): Promise<RunningIsbnStandin> {
  const calls = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
    if (url.pathname === STANDIN_CALLS_PATH) return send(res, 200, Object.fromEntries(calls));
    if (url.pathname !== '/api/books') return send(res, 404, { error: 'not found' });
    const bibkeys = (url.searchParams.get('bibkeys') ?? '').split(',').filter(Boolean);
    const out: Record<string, unknown> = {};
    let slow = false;
    for (const bibkey of bibkeys) {
      const isbn13 = toIsbn13(bibkey.replace(/^ISBN:/i, ''));
      if (!isbn13) continue;
      calls.set(isbn13, (calls.get(isbn13) ?? 0) + 1);
      if (isbn13 === FIXTURE_ISBNS.SLOW) slow = true;
      const book = byIsbn13.get(isbn13);
      if (book) out[bibkey] = openLibraryEntry(book);
    }
    // Open Library answers JSON only with format=json (else a JavaScript assignment); so does this.
    const body =
      url.searchParams.get('format') === 'json' ? out : `var _OLBookInfo = ${JSON.stringify(out)};`;
    if (!slow) return send(res, 200, body);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) send(res, 200, body);
    }, SLOW_DELAY_MS);
    timers.add(timer);
  };

  const server = createServer(answer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
