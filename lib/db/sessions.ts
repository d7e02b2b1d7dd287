/**
 * Refresh families (REFRESH#<familyId> / REFRESH): one per login, holding only the SHA-256 of the
 * family's current refresh token, its generation and its sliding expiry. A refresh rotates the
 * family with one conditional UpdateItem (the generation and hash it read must still be there: one
 * winner among concurrent refreshes); a reuse, a logout or a stale user state deletes it. Expired
 * items are deleted by the table's TTL eventually; every read checks `expiresAt` too.
 */
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand } from '#lib/table/commands.ts';
import { getItem, putNew } from '#lib/table/items.ts';
import { updateIf } from '#lib/table/write-if.ts';
import { refreshFamilyKey } from './keys.ts';

export interface RefreshFamilyRecord {
  type: 'refreshFamily';
  familyId: string;
  userId: string;
  /** generation of the current token (0 at login, +1 at every rotation) */
  generation: number;
  /** SHA-256 (hex) of the current token */
  tokenHash: string;
  /** when the current token was issued (the previous one is answered with it for a short grace) */
  rotatedAt: string;
  createdAt: string;
  /** ISO-8601: the family is refused from this instant on; moved forward by every refresh */
  expiresAt: string;
  /** epoch seconds, the table's TTL attribute */
  ttl: number;
  /** the user's token version and role at login: a change of either ends the family */
  tokenVersion: number;
  permissionType: number;
  /** whether the login passed a second factor (carried into every access token of the family) */
  mfa: boolean;
}

/** The moving part of a family, as a rotation writes it. */
export type Rotation = Pick<
  RefreshFamilyRecord,
  'generation' | 'tokenHash' | 'rotatedAt' | 'expiresAt' | 'ttl'
>;

export async function putRefreshFamily(r: RefreshFamilyRecord): Promise<void> {
  await putNew({ ...refreshFamilyKey(r.familyId), ...r });
}

export async function getRefreshFamily(familyId: string): Promise<RefreshFamilyRecord | null> {
  const item = await getItem<RefreshFamilyRecord & { pk?: string; sk?: string }>(refreshFamilyKey(familyId));
  if (item?.type !== 'refreshFamily') return null;
  const { pk: _pk, sk: _sk, ...record } = item;
  return record;
}

/**
 * Moves the family from the token it was read with (`from`) to `to`; false when another refresh
 * moved it first or it is gone (nothing written).
 */
export async function rotateRefreshFamily(
  familyId: string,
  from: Pick<RefreshFamilyRecord, 'generation' | 'tokenHash'>,
  to: Rotation,
): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: refreshFamilyKey(familyId),
    UpdateExpression:
      'SET generation = :gen, tokenHash = :hash, rotatedAt = :at, expiresAt = :exp, #ttl = :ttl',
    ConditionExpression: 'attribute_exists(pk) AND generation = :from AND tokenHash = :fromHash',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':gen': to.generation,
      ':hash': to.tokenHash,
      ':at': to.rotatedAt,
      ':exp': to.expiresAt,
      ':ttl': to.ttl,
      ':from': from.generation,
      ':fromHash': from.tokenHash,
    },
  });
}

/** Ends a family (logout, reuse, a stale user state); nothing happens when it is already gone. */
export async function deleteRefreshFamily(familyId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: refreshFamilyKey(familyId) }));
}
