/**
 * A database that cannot be reached at all: the service's client points at a name that never
 * resolves (`.invalid`, RFC 6761), so each attempt fails in the DNS look-up (ENOTFOUND, EAI_AGAIN)
 * or at the connect timeout. After the client's attempts the request is answered 503 with
 * Retry-After (Busy), never 500, within the budget of one call.
 */
import { describe, expect, it } from 'vitest';

// Set before lib/config.ts loads: every module below reaches "DynamoDB" at this address.
process.env.DYNAMODB_ENDPOINT = 'http://dynamodb.campus-books.invalid:8000';
const { DYNAMODB_TIMING } = await import('#lib/table/client.ts');
const { booksApi } = await import('#tests/helpers/book-api.ts');

describe('a database whose address does not resolve', () => {
  it('answers a read 503 with Retry-After after the attempts, never 500', async () => {
    const started = Date.now();
    const res = await booksApi.getBook('01J0000000000000000000BOOK');
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect((res.json() as { data: { code: string } }).data.code).toBe('SERVICE_UNAVAILABLE');
    expect(took).toBeLessThan(DYNAMODB_TIMING.callBudgetMs + 500);
  });
});
