/**
 * E-mailed single-use tokens (TOKEN#<sha256> / TOKEN): pending sign-ups (kind `confirm`) and
 * password resets (kind `reset`). Only the SHA-256 of a token is ever stored. Expired items are
 * deleted by the table's TTL eventually; every read and every consumption checks `expiresAt` too.
 */

import { TABLE } from '#lib/table/client.ts';
import { getItem, putNew } from '#lib/table/items.ts';
import { indexPartition, queryAll } from '#lib/table/page.ts';
import { putOp, type TransactItem, tag, transactWrite } from '#lib/table/transact.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import { INDEX, pendingSignupIndex, pendingSignupsPk, spentTokenKey, tokenKey } from './keys.ts';

/** What a sign-up carries until it is confirmed. */
export interface SignupData {
  emailAddress: string;
  emailNormalised: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  university: string;
  campusMailbox: string;
  paymentUsername: string;
}

interface TokenBase {
  type: 'token';
  tokenHash: string;
  createdAt: string;
  /** ISO-8601; the token is refused from this instant on, whatever the TTL has done */
  expiresAt: string;
  /** epoch seconds, the table's TTL attribute */
  ttl: number;
}

export interface PendingSignupRecord extends TokenBase {
  kind: 'confirm';
  signup: SignupData;
}

export interface ResetTokenRecord extends TokenBase {
  kind: 'reset';
  userId: string;
  /**
   * The user's token version when the token was issued. A reset or a password change bumps the
   * version, so every reset token issued before it stops working at once (revoked).
   */
  tokenVersion: number;
}

export type TokenRecord = PendingSignupRecord | ResetTokenRecord;

function pendingSignupItem(r: PendingSignupRecord) {
  return {
    ...tokenKey(r.tokenHash),
    ...pendingSignupIndex(r.signup.emailNormalised, r.createdAt, r.tokenHash),
    ...r,
  };
}

/** Stores a pending sign-up under its token hash. */
export async function putPendingSignup(r: PendingSignupRecord): Promise<void> {
  await putNew(pendingSignupItem(r));
}

/** What became of a sign-up link that no longer works. */
export type SpentAs = 'confirmed' | 'replaced';
const SPENT_KEEP_SECONDS = 30 * 24 * 3600;

/** The transaction part that remembers what became of a sign-up token (30 days, then TTL). */
export function spentTokenPutOp(tokenHash: string, as: SpentAs, now: Date): TransactItem {
  return putOp({
    ...spentTokenKey(tokenHash),
    type: 'spentToken',
    as,
    at: now.toISOString(),
    ttl: expiresAfter(now, SPENT_KEEP_SECONDS),
  });
}

/** What became of a sign-up token that no longer works, or null (unknown, or gone after 30 days). */
export async function getSpentToken(tokenHash: string): Promise<SpentAs | null> {
  const as = (await getItem(spentTokenKey(tokenHash), { eventual: true }))?.as;
  return as === 'confirmed' || as === 'replaced' ? as : null;
}

/**
 * Deletes every pending sign-up of the address that is older than `kept` (by createdAt, then token
 * hash): a new sign-up replaces the pending one. Two concurrent sign-ups both end with the newest kept.
 */
export async function removeOlderPendingSignups(kept: PendingSignupRecord): Promise<void> {
  const keptSk = pendingSignupIndex(kept.signup.emailNormalised, kept.createdAt, kept.tokenHash).gsi1sk;
  const older = await queryAll({
    IndexName: INDEX.gsi1,
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :sk',
    ExpressionAttributeValues: { ':pk': pendingSignupsPk(kept.signup.emailNormalised), ':sk': keptSk },
    ProjectionExpression: 'tokenHash',
  });
  for (const item of older) {
    const hash = String(item.tokenHash);
    await transactWrite([
      tag('old', { Delete: { TableName: TABLE, Key: tokenKey(hash) } }),
      tag('spent', spentTokenPutOp(hash, 'replaced', new Date(kept.createdAt))),
    ]);
  }
}

/** The newest pending sign-up of an address (gsi1 `PENDING#<email>`, read backwards), or null. */
export async function latestPendingSignup(normalisedEmail: string): Promise<PendingSignupRecord | null> {
  const [latest] = await queryAll(indexPartition('gsi1', pendingSignupsPk(normalisedEmail)), 1);
  const item = latest as PendingSignupRecord | undefined;
  return item?.kind === 'confirm' ? item : null;
}

/**
 * Replaces a pending sign-up by a fresh one (a resend): the old token stops working and the new
 * one is stored, in one transaction. False when the old one was used or replaced meanwhile.
 */
export async function replacePendingSignup(
  oldTokenHash: string,
  fresh: PendingSignupRecord,
): Promise<boolean> {
  const outcome = await transactWrite([
    tag('old', {
      Delete: {
        TableName: TABLE,
        Key: tokenKey(oldTokenHash),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    tag('fresh', {
      Put: {
        TableName: TABLE,
        Item: pendingSignupItem(fresh),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('spent', spentTokenPutOp(oldTokenHash, 'replaced', new Date(fresh.createdAt))),
  ]);
  return outcome.ok;
}

/** Stores a password reset token under its hash. */
export async function putResetToken(r: ResetTokenRecord): Promise<void> {
  await putNew({ ...tokenKey(r.tokenHash), ...r });
}

/** A token by its hash (strongly consistent: it was probably written a moment ago), or null. */
export async function getToken(tokenHash: string): Promise<TokenRecord | null> {
  return (await getItem<TokenRecord>(tokenKey(tokenHash))) ?? null;
}

/**
 * The transaction part that consumes a token: deletes it on condition that it still exists, is of
 * this kind and has not expired. Two concurrent uses cannot both pass this condition.
 */
export function consumeTokenOp(tokenHash: string, kind: TokenRecord['kind'], now: Date): TransactItem {
  return {
    Delete: {
      TableName: TABLE,
      Key: tokenKey(tokenHash),
      ConditionExpression: 'attribute_exists(pk) AND #kind = :kind AND expiresAt > :now',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: { ':kind': kind, ':now': now.toISOString() },
    },
  };
}
