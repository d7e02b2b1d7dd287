/**
 * Two-factor sign-in state, kept on the user's own item (USER#<uid> / PROFILE), never answered by
 * any route (lib/accounts/schemas.ts `toUser` builds the user field by field; the export does too):
 *
 * - `totpPending`: the secret handed out by enrollTotp, encrypted, until confirmTotp checks a code;
 * - `totpSecret`: the confirmed secret, encrypted (AES-256-GCM, lib/accounts/totp.ts);
 * - `totpLastStep`: the last 30-second time step a code was accepted for (a replay is refused);
 * - `totpRecovery`: a string set of the SHA-256 of each unused recovery code.
 *
 * Every move is one conditional UpdateItem, so two requests racing with the same code or recovery
 * code cannot both win.
 */
import { TABLE } from '#lib/table/client.ts';
import { updateIf } from '#lib/table/write-if.ts';
import { userKey } from './keys.ts';

export interface TotpState {
  totpPending?: string;
  totpSecret?: string;
  totpLastStep?: number;
  totpRecovery?: Set<string>;
}

/** One conditional UpdateItem of the user's item: `update` on `condition`; false when the condition failed. */
const updateUserIf = (userId: string, update: string, condition: string, values: Record<string, unknown>) =>
  updateIf({
    TableName: TABLE,
    Key: userKey(userId),
    UpdateExpression: update,
    ConditionExpression: condition,
    ExpressionAttributeValues: values,
  });

/** Stores a new pending secret (replacing an earlier pending one); false when TOTP is already on. */
export const putPendingTotp = (userId: string, encryptedSecret: string): Promise<boolean> =>
  updateUserIf(
    userId,
    'SET totpPending = :pending',
    'attribute_exists(pk) AND attribute_not_exists(totpSecret)',
    { ':pending': encryptedSecret },
  );

/** The pending secret becomes the active one with its recovery codes; false when it moved on meanwhile. */
export const activateTotp = (
  userId: string,
  encryptedSecret: string,
  step: number,
  recoveryHashes: string[],
): Promise<boolean> =>
  updateUserIf(
    userId,
    'SET totpSecret = :secret, totpLastStep = :step, totpRecovery = :recovery REMOVE totpPending',
    'totpPending = :secret AND attribute_not_exists(totpSecret)',
    {
      ':secret': encryptedSecret,
      ':step': step,
      ':recovery': new Set(recoveryHashes),
    },
  );

/** Records a code's time step as used, only when it is later than the last one used (no replay). */
export const claimTotpStep = (userId: string, encryptedSecret: string, step: number): Promise<boolean> =>
  updateUserIf(
    userId,
    'SET totpLastStep = :step',
    'totpSecret = :secret AND (attribute_not_exists(totpLastStep) OR totpLastStep < :step)',
    { ':secret': encryptedSecret, ':step': step },
  );

/** Takes one recovery code out of the set; false when it is not (or no longer) there. */
export const spendRecoveryCode = (userId: string, hash: string): Promise<boolean> =>
  updateUserIf(userId, 'DELETE totpRecovery :one', 'contains(totpRecovery, :hash)', {
    ':one': new Set([hash]),
    ':hash': hash,
  });

/** Turns two-factor sign-in off for a user (everything of it goes). */
export const removeTotp = (userId: string, encryptedSecret: string): Promise<boolean> =>
  updateUserIf(userId, 'REMOVE totpSecret, totpLastStep, totpRecovery, totpPending', 'totpSecret = :secret', {
    ':secret': encryptedSecret,
  });
