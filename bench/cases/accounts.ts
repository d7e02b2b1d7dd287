/** Login (functions/auth/login): bcrypt-bound, so the report shows bcrypt's share of its time. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import type { SeedUser } from '#bench/harness/fixture.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { normaliseEmail, THROTTLE, throttleWindow } from '#lib/accounts/rules.ts';
import { emailKey, throttleWindowKey, userKey } from '#lib/db/keys.ts';

const login: BenchCase = {
  name: 'login',
  kind: 'login',
  module: 'functions/auth/login.ts',
  status: 200,
  floorDescription:
    "in parallel: GetItem of the address's failed-login window (consistent), and GetItem of the e-mail item then of the user (consistent); the bcrypt compare is not part of the floor but reported as bcrypt's share",
  prepare: async (ctx) => {
    const users = ctx.fixture.users;
    const userOf = (i: number) => users[i % users.length] as SeedUser;
    return {
      event: (i) => ({
        method: 'POST',
        route: '/api/auth/login',
        body: { emailAddress: userOf(i).email, password: ctx.fixture.password },
      }),
      floor: async (i, client) => {
        const email = normaliseEmail(userOf(i).email);
        const window = throttleWindow(THROTTLE.loginFailures, new Date());
        await Promise.all([
          client.send(
            new GetCommand({
              TableName: ctx.table,
              Key: throttleWindowKey(THROTTLE.loginFailures.action, email, window.start),
              ProjectionExpression: '#count',
              ExpressionAttributeNames: { '#count': 'count' },
              ConsistentRead: true,
            }),
          ),
          (async () => {
            const e = await client.send(
              new GetCommand({ TableName: ctx.table, Key: emailKey(email), ConsistentRead: true }),
            );
            await client.send(
              new GetCommand({
                TableName: ctx.table,
                Key: userKey(String(e.Item?.userId)),
                ConsistentRead: true,
              }),
            );
          })(),
        ]);
      },
      bcrypt: async () => {
        await bcrypt.compare(ctx.fixture.password, ctx.fixture.passwordHash);
      },
    };
  },
};

export const accountCases: BenchCase[] = [login];
