/** Login (functions/auth/login): bound by its password check, so the report shows that check's share of its time. */

import { inTurn } from '#bench/harness/data.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { verifyPassword } from '#lib/accounts/passwords.ts';
import {
  allowedInCurrentWindow,
  normaliseEmail,
  previousWindow,
  THROTTLE,
  throttleWindow,
} from '#lib/accounts/rules.ts';
import { startRefreshFamily } from '#lib/accounts/sessions.ts';
import { emailKey, userKey } from '#lib/db/keys.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { addToWindowIfBelow, countInWindow, removeFromWindow } from '#lib/db/throttle.ts';
import { GetCommand } from '#lib/table/commands.ts';

const login: BenchCase = {
  name: 'login',
  kind: 'login',
  module: 'functions/auth/login.ts',
  status: 200,
  floorDescription:
    "in parallel: GetItem of the address's previous attempt window (consistent) then the conditional ADD of this attempt to the current window, and GetItem of the e-mail item then of the user (consistent); after the compare, the attempt given back (conditional ADD -1), then the session's refresh family (PutItem). The password check (Argon2id) is not part of the floor but reported as its share",
  prepare: async (ctx) => {
    const userOf = inTurn(ctx.fixture.users);
    return {
      event: (i) => ({
        method: 'POST',
        route: '/api/auth/login',
        body: { emailAddress: userOf(i).email, password: ctx.fixture.password },
      }),
      floor: async (i, client) => {
        const email = normaliseEmail(userOf(i).email);
        const policy = THROTTLE.loginFailures;
        const now = new Date();
        const window = throttleWindow(policy, now);
        // The attempt windows through the production functions (lib/db/throttle.ts), not a hand copy.
        const user = await Promise.all([
          (async () => {
            const previous = await countInWindow(policy.action, email, previousWindow(policy, now));
            const allowed = allowedInCurrentWindow(policy, previous, now);
            await addToWindowIfBelow(policy.action, email, window, allowed);
          })(),
          (async () => {
            const e = await client.send(
              new GetCommand({ TableName: ctx.table, Key: emailKey(email), ConsistentRead: true }),
            );
            const u = await client.send(
              new GetCommand({
                TableName: ctx.table,
                Key: userKey(String(e.Item?.userId)),
                ConsistentRead: true,
              }),
            );
            return u.Item as UserRecord;
          })(),
        ]).then(([, user]) => user);
        await removeFromWindow(policy.action, email, window);
        // the session's refresh family, through the production function (one PutItem)
        await startRefreshFamily(user, { mfa: false }, now);
      },
      hashing: async () => {
        await verifyPassword(ctx.fixture.password, ctx.fixture.passwordHash);
      },
    };
  },
};

export const accountCases: BenchCase[] = [login];
