/**
 * The public routes' roles are limited with `dynamodb:LeadingKeys` (infra/iam.yml, PublicListRole
 * and PublicReadRole; issue 31 item 7): each may read only the key prefixes and named indexes of
 * the listing and the search. DynamoDB Local does not enforce IAM, so this test drives the two
 * public functions through every kind of page they answer (offsets, campuses, every search tier
 * and order, a cursor) with every DynamoDB call watched, and checks each call against the policy
 * as written: the operation allowed, on the table or a named index, and every partition key it
 * reaches matching the statement's patterns. A new read path that the policy does not cover (and
 * that would answer AccessDenied when deployed) fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument, type Tags } from 'yaml';
import { watchCalls } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBook, TEST_CAMPUS } from '#tests/helpers/books.ts';
import { makeUser } from '#tests/helpers/users.ts';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string[]>>;
}

// CloudFormation short forms as plain values: !GetAtt Table.Arn -> 'Table.Arn', !Join joins.
const cfnTags: Tags = [
  { tag: '!GetAtt', resolve: (v: string) => v },
  { tag: '!Ref', resolve: (v: string) => `Ref:${v}` },
  { tag: '!Sub', resolve: (v: string) => v },
  {
    tag: '!Join',
    collection: 'seq',
    resolve: (seq) => {
      const [sep, parts] = (seq as { toJSON(): [string, unknown[]] }).toJSON();
      return parts.map(String).join(sep);
    },
  },
] as Tags;

/** The DynamoDB statements of one role in infra/iam.yml. */
function dynamoStatements(role: string): Statement[] {
  const doc = parseDocument(readFileSync('infra/iam.yml', 'utf8'), { customTags: cfnTags, strict: false });
  const policies = (
    doc.toJSON() as Record<
      string,
      Record<string, { Properties: { Policies: { PolicyDocument: { Statement: Statement[] } }[] } }>
    >
  ).Resources?.[role]?.Properties.Policies;
  if (!policies) throw new Error(`no role ${role} in infra/iam.yml`);
  return policies
    .flatMap((p) => p.PolicyDocument.Statement)
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
}

interface Call {
  operation: string;
  /** 'table' or the index's name */
  on: string;
  keys: string[];
}

/** What IAM sees of a call: its operation, the table or index, and the partition keys it reaches. */
function callOf(operation: string, input: Record<string, unknown>): Call {
  if (operation === 'GetItem') return { operation, on: 'table', keys: [(input.Key as { pk: string }).pk] };
  if (operation === 'BatchGetItem') {
    const tables = Object.values(input.RequestItems as Record<string, { Keys: { pk: string }[] }>);
    return { operation, on: 'table', keys: tables.flatMap((t) => t.Keys.map((k) => k.pk)) };
  }
  if (operation === 'Query') {
    const [, , placeholder] = /^(\w+) = (:\w+)/.exec(String(input.KeyConditionExpression)) ?? [];
    const values = input.ExpressionAttributeValues as Record<string, string>;
    return {
      operation,
      on: (input.IndexName as string | undefined) ?? 'table',
      keys: [values[placeholder ?? ''] ?? ''],
    };
  }
  return { operation, on: 'table', keys: [] };
}

const like = (pattern: string, value: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);

/** Whether one of the statements allows the call (ForAllValues: every key matches a pattern). */
function allowed(statements: Statement[], call: Call): boolean {
  return statements.some((s) => {
    const resources = [s.Resource].flat().map(String);
    const resource = call.on === 'table' ? 'Table.Arn' : `Table.Arn/index/${call.on}`;
    const patterns = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    return (
      [s.Action].flat().includes(`dynamodb:${call.operation}`) &&
      resources.includes(resource) &&
      patterns !== undefined &&
      call.keys.length > 0 &&
      call.keys.every((k) => patterns.some((p) => like(p, k)))
    );
  });
}

async function callsOf(drive: () => Promise<void>): Promise<Call[]> {
  const calls: Call[] = [];
  const stop = watchCalls((operation, input) =>
    calls.push(callOf(operation, input as Record<string, unknown>)),
  );
  try {
    await drive();
  } finally {
    stop();
  }
  return calls;
}

describe('the public routes read only what their roles allow', () => {
  it('every statement of both roles names its resources and its leading keys (no index wildcard)', () => {
    for (const role of ['PublicListRole', 'PublicReadRole']) {
      const statements = dynamoStatements(role);
      expect(statements.length, role).toBeGreaterThan(0);
      for (const s of statements) {
        expect(JSON.stringify(s.Resource), role).not.toContain('index/*');
        expect(
          s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']?.length,
          role,
        ).toBeGreaterThan(0);
        expect(
          [s.Action]
            .flat()
            .every((a) => ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'].includes(a)),
          role,
        ).toBe(true);
      }
    }
  });

  it('getBooksNoToken (PublicListRole): every campus and one, first pages and deep skips', async () => {
    const owner = await makeUser();
    for (let i = 0; i < 3; i++) await makeBook(owner, { campus: TEST_CAMPUS });
    const calls = await callsOf(async () => {
      for (const [limit, skip] of [
        [10, 0],
        [2, 1],
        [50, 30],
      ]) {
        expect((await booksApi.getBooksNoToken(limit as number, skip as number)).status).toBe(200);
        expect(
          (
            await booksApi.getBooksNoToken(limit as number, skip as number, undefined, {
              campus: TEST_CAMPUS,
            })
          ).status,
        ).toBe(200);
      }
    });
    const statements = dynamoStatements('PublicListRole');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(allowed(statements, call), JSON.stringify(call)).toBe(true);
    // the listing's own indexes, both kinds of partition
    expect(new Set(calls.map((c) => c.on))).toEqual(new Set(['gsi1keys', 'gsi1', 'gsi4keys', 'gsi4']));
  });

  it('search/public (PublicReadRole): every tier, order, campus and a second page', async () => {
    const owner = await makeUser();
    const isbn = '9780131103627';
    for (let i = 0; i < 3; i++) {
      await makeBook(owner, {
        name: `Organic Chemistry ${i}`,
        course: 'CHEM 235',
        ISBN: isbn,
        campus: TEST_CAMPUS,
        author: 'Paula Bruice',
      });
    }
    const queries = ['orgnic chemistry', 'chemistry', 'CHEM', '235', 'CHEM 235', isbn, 'bruice'];
    const calls = await callsOf(async () => {
      for (const q of queries) {
        for (const sort of ['relevance', 'newest', 'price-asc', 'price-desc']) {
          for (const campus of [undefined, TEST_CAMPUS]) {
            const res = await booksApi.searchPublic(q, { sort, limit: '1', ...(campus ? { campus } : {}) });
            expect(res.status, `${q} ${sort} ${campus}`).toBe(200);
            const next = res.json<{ next: string | null }>().next;
            if (next) {
              const second = await booksApi.searchPublic(q, {
                sort,
                limit: '1',
                cursor: next,
                ...(campus ? { campus } : {}),
              });
              expect(second.status).toBe(200);
            }
          }
        }
      }
    });
    const statements = dynamoStatements('PublicReadRole');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(allowed(statements, call), JSON.stringify(call)).toBe(true);
  });

  it('the check refuses what the roles do not allow (a user record, the owners index, an index wildcard)', () => {
    const read = dynamoStatements('PublicReadRole');
    const list = dynamoStatements('PublicListRole');
    expect(allowed(read, { operation: 'GetItem', on: 'table', keys: ['USER#someone'] })).toBe(false);
    expect(allowed(list, { operation: 'Query', on: 'gsi2', keys: ['OWNER#someone'] })).toBe(false);
    expect(allowed(list, { operation: 'Query', on: 'gsi1', keys: ['BOOKS#S1'] })).toBe(false);
    expect(allowed(read, { operation: 'BatchGetItem', on: 'table', keys: ['TYPO#x', 'USER#y'] })).toBe(false);
    expect(allowed(read, { operation: 'PutItem', on: 'table', keys: ['SEARCH#T#x'] })).toBe(false);
  });
});
