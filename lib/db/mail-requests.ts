/**
 * Account e-mail requests (`MAILREQ#<id>` / `MAILREQ`): what a public e-mail route stores, the same
 * for every address, for the stream consumer to act on. A request is claimed (pending -> claimed,
 * conditional) before it is acted on, so a redelivered stream record acts once; a failed attempt
 * gives the claim back for the stream's retry.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import { mailRequestKey } from './keys.ts';
import { updateIf } from './write-if.ts';

export type MailRequestKind = 'password-reset' | 'resend-confirmation';

/** MAILREQ#<id> / MAILREQ */
export interface MailRequestRecord {
  type: 'mailRequest';
  id: string;
  kind: MailRequestKind;
  /** the address as normalised (the uniqueness key form) */
  emailNormalised: string;
  requestedAt: string;
  state: 'pending' | 'claimed';
  /** epoch seconds, the table's TTL attribute */
  ttl: number;
}

/** Stores a new request (one PutItem). */
export async function putMailRequest(r: MailRequestRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...mailRequestKey(r.id), ...r },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

async function moveState(id: string, from: string, to: string): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: mailRequestKey(id),
    UpdateExpression: 'SET #state = :to',
    ConditionExpression: '#state = :from',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':from': from, ':to': to },
  });
}

/** Claims a pending request; false when it was claimed already (or is gone). */
export const claimMailRequest = (id: string): Promise<boolean> => moveState(id, 'pending', 'claimed');

/** Gives a claim back after a failed attempt, so the retry can claim it again. */
export async function releaseMailRequest(id: string): Promise<void> {
  await moveState(id, 'claimed', 'pending');
}
