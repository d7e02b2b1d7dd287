/**
 * Concurrent writes (issue 14): N clients at once, each a student of the bench campus who, round
 * after round, posts a book, puts a book another client just posted in the cart and checks out.
 * Every request goes through the real handlers in this process (postBook, addToCart, checkoutCart)
 * against the bench's DynamoDB Local, as the other cases do; clients race for the same fresh books,
 * so some carts and checkouts are refused (409) by design. Reported per N: requests per second,
 * p50/p99 of every request, and answers by kind (2xx, 409, 503, 500, other).
 *
 * DynamoDB Local runs one transaction at a time and never answers TransactionConflict or
 * throttling, so a 503 here means the service's own retries ran out locally; the conflict and
 * throttling paths themselves are proven by tests/integration/concurrency/faults.test.ts.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { EventInput } from '#tests/helpers/lambda.ts';
import { type Summary, summarise } from './stats.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export type Operation = 'post' | 'cart' | 'checkout';

export interface ConcurrentResult {
  clients: number;
  /** rounds of post, cart and checkout per client */
  rounds: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** every request's time, ms */
  latency: Summary;
  /** p50/p99 per operation, ms */
  byOperation: Record<Operation, Summary>;
  /** answers by kind: `2xx`, `409`, `503`, `500`, other statuses by number, `threw` */
  answers: Record<string, number>;
}

export interface ConcurrentClient {
  id: string;
  token: string;
}

export interface ConcurrentSetup {
  /** one client per user; at least the largest N */
  clients: ConcurrentClient[];
  handlers: Record<Operation, Handler>;
  makeEvent: (input: EventInput) => APIGatewayProxyEventV2;
  makeContext: () => Context;
  runId: string;
  /** untimed: takes a book out of a client's cart (after a checkout refused it as sold) */
  forget: (userId: string, bookId: string) => Promise<void>;
}

/** The kind an answer is counted as. */
export function answerKind(status: number | 'threw'): string {
  if (status === 'threw') return 'threw';
  if (status >= 200 && status < 300) return '2xx';
  return String(status);
}

/** how many of the newest books the clients choose from (fewer: more 409s) */
const HOT = 5;

/** Answers as `[kind, count]`, 2xx first, then by status, `threw` last. */
export function answersInOrder(answers: Record<string, number>): Array<[string, number]> {
  const rank = (k: string) => (k === '2xx' ? 0 : k === 'threw' ? 1000 : Number(k));
  return Object.entries(answers).sort(([a], [b]) => rank(a) - rank(b));
}

const bookBody = (runId: string, client: number, round: number) => ({
  name: `Concurrent ${runId} ${client} ${round}`,
  edition: 1 + (round % 9),
  course: 'CON 101',
  price: 12.5 + (client % 20),
  condition: 'Good',
  comments: 'Posted by the concurrent writes benchmark.',
});

/** N clients at once, `rounds` rounds each; the books they post feed each other's carts. */
export async function measureConcurrentWrites(
  setup: ConcurrentSetup,
  clients: number,
  rounds: number,
): Promise<ConcurrentResult> {
  if (setup.clients.length < clients)
    throw new Error(`concurrent writes: ${clients} clients, ${setup.clients.length} users`);
  const times: Record<Operation, number[]> = { post: [], cart: [], checkout: [] };
  const answers: Record<string, number> = {};
  /** books posted in this run, newest last, with their poster */
  const posted: Array<{ id: string; by: number }> = [];

  const call = async (
    op: Operation,
    input: EventInput,
  ): Promise<{ status: number | 'threw'; body: string }> => {
    const t = performance.now();
    let status: number | 'threw';
    let body = '';
    try {
      const res = await setup.handlers[op](setup.makeEvent(input), setup.makeContext());
      status = typeof res === 'string' ? 200 : (res.statusCode ?? 200);
      body = typeof res === 'string' ? res : (res.body ?? '');
    } catch {
      status = 'threw';
    }
    times[op].push(performance.now() - t);
    const kind = answerKind(status);
    answers[kind] = (answers[kind] ?? 0) + 1;
    return { status, body };
  };

  const client = async (c: number) => {
    const me = setup.clients[c] as ConcurrentClient;
    for (let round = 0; round < rounds; round++) {
      const post = await call('post', {
        method: 'POST',
        route: '/api/books/postBook',
        token: me.token,
        body: bookBody(setup.runId, c, round),
      });
      if (post.status === 201) {
        const json = JSON.parse(post.body) as { data?: { id?: string } };
        if (json.data?.id) posted.push({ id: json.data.id, by: c });
      }
      // One of the HOT newest books someone else posted: the clients race for the same few books.
      const others = posted.filter((b) => b.by !== c).slice(-HOT);
      const target = others[(c * 7 + round) % Math.max(1, others.length)];
      if (!target) continue;
      const cart = await call('cart', {
        method: 'POST',
        route: '/api/user/addToCart',
        token: me.token,
        body: { bookId: target.id },
      });
      if (answerKind(cart.status) !== '2xx') continue;
      const checkout = await call('checkout', {
        method: 'POST',
        route: '/api/books/checkoutCart',
        token: me.token,
        headers: { 'idempotency-key': `concurrent-${setup.runId}-${clients}-${c}-${round}` },
      });
      // another client bought it first: the student drops it, so the next round starts clean
      if (checkout.status === 409) await setup.forget(me.id, target.id);
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  const seconds = (performance.now() - started) / 1000;
  const all = [...times.post, ...times.cart, ...times.checkout];
  return {
    clients,
    rounds,
    requests: all.length,
    seconds,
    requestsPerSecond: all.length / seconds,
    latency: summarise(all),
    byOperation: {
      post: summarise(times.post),
      cart: summarise(times.cart),
      checkout: summarise(times.checkout),
    },
    answers,
  };
}
