/**
 * Hand-overs repository: the campuses' hand-over points (weekly opening hours) and the one
 * hand-over of each seller's books in an order (a proposed slot at a point, then agreed or
 * declined). docs/handover.md.
 *
 * Access patterns:
 *  - a point by id                                   GetItem HPOINT#<id> / HPOINT
 *  - a campus's points by name                       Query gsi1 HPOINTS#<campus> (bounded)
 *  - the hand-over of one seller in an order         GetItem ORDER#<orderId> / HANDOVER#<sellerId>
 *  - an order's hand-overs                           Query ORDER#<orderId>, sk begins_with HANDOVER#
 *  - hand-overs of some purchases                    BatchGet
 *  - agreed hand-overs of a day (of a point)         Query gsi1 HANDOVERS#<day> (gsi2 HANDOVERS#<point>#<day>)
 */

import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand, QueryCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { type Item, type Page, queryAll, queryPage, stripKeys, TimePosition } from '#lib/table/page.ts';
import { tag, transactWrite } from '#lib/table/transact.ts';
import type { Opening } from '#lib/values/hours.ts';
import { type AuditRecord, auditPutOp } from './audit.ts';
import {
  agreedHandoverIndexes,
  HANDOVER_SK_PREFIX,
  handoverKey,
  handoverKeyOfSlot,
  handoverPointIndex,
  handoverPointKey,
  handoverPointsPk,
  handoversOfDayPk,
  handoversOfPointDayPk,
  INDEX,
  orderPartition,
} from './keys.ts';

/** The most points one campus lists (a read of them is one bounded Query). */
export const MAX_POINTS_PER_CAMPUS = 50;

/** HPOINT#<id> / HPOINT, plus handoverPointIndex(...) */
export interface HandoverPointRecord {
  type: 'handoverPoint';
  id: string;
  campus: string;
  name: string;
  /** where exactly (a desk, a door) */
  location: string;
  /** IANA zone of the hours */
  timeZone: string;
  hours: Opening[];
  updatedAt: string;
}

/** What a hand-over keeps of its point (the point may change or go later). */
export type PointSnapshot = Pick<HandoverPointRecord, 'id' | 'name' | 'location' | 'timeZone'>;

export type HandoverState = 'pending' | 'agreed' | 'declined';

/** ORDER#<orderId> / HANDOVER#<sellerId>, plus agreedHandoverIndexes(...) while agreed */
export interface HandoverRecord {
  type: 'handover';
  orderId: string;
  sellerId: string;
  buyerId: string;
  /** the current proposal: `<orderId>_<sellerId>_<ulid>`, new with every proposal */
  proposalId: string;
  /** the seller's books in the order when it was proposed */
  bookIds: string[];
  point: PointSnapshot;
  /** the slot, ISO-8601 UTC */
  at: string;
  /** the slot's date at its point (`YYYY-MM-DD`) */
  day: string;
  state: HandoverState;
  proposedBy: string;
  proposedAt: string;
  answeredAt: string | null;
  /** moved by every write: the condition of the next one */
  version: number;
}

const asPoint = (item: Item | undefined): HandoverPointRecord | null =>
  item?.type === 'handoverPoint' ? stripKeys<HandoverPointRecord>(item) : null;
const asHandover = (item: Item | undefined): HandoverRecord | null =>
  item?.type === 'handover' ? stripKeys<HandoverRecord>(item) : null;

// ----- points ----------------------------------------------------------------------------------

/** A point by id (strongly consistent), or null. */
export async function getHandoverPoint(pointId: string): Promise<HandoverPointRecord | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: handoverPointKey(pointId), ConsistentRead: true }),
  );
  return asPoint(out.Item);
}

/** A campus's points by name (one Query, at most MAX_POINTS_PER_CAMPUS). */
export async function listHandoverPoints(campus: string): Promise<HandoverPointRecord[]> {
  const items = await queryAll(
    {
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': handoverPointsPk(campus) },
    },
    MAX_POINTS_PER_CAMPUS,
  );
  return items.flatMap((i) => asPoint(i) ?? []);
}

export const handoverPointItem = (p: HandoverPointRecord): Item => ({
  ...handoverPointKey(p.id),
  ...handoverPointIndex(p.campus, p.name, p.id),
  ...p,
});

/**
 * Writes a point with its audit entry (one transaction): `create` only if it is new, otherwise
 * only if it exists. False when that condition failed (nothing written).
 */
export async function putHandoverPoint(
  point: HandoverPointRecord,
  create: boolean,
  audit: AuditRecord,
): Promise<boolean> {
  const outcome = await transactWrite([
    tag('point', {
      Put: {
        TableName: TABLE,
        Item: handoverPointItem(point),
        ConditionExpression: create ? 'attribute_not_exists(pk)' : 'attribute_exists(pk)',
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
  return outcome.ok;
}

/** Removes a point with its audit entry (one transaction); false when there is no such point. */
export async function removeHandoverPoint(pointId: string, audit: AuditRecord): Promise<boolean> {
  const outcome = await transactWrite([
    tag('point', {
      Delete: {
        TableName: TABLE,
        Key: handoverPointKey(pointId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
  return outcome.ok;
}

// ----- hand-overs ------------------------------------------------------------------------------

/** The hand-over of one seller's books in an order (strongly consistent), or null. */
export async function getHandover(orderId: string, sellerId: string): Promise<HandoverRecord | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: handoverKey(orderId, sellerId), ConsistentRead: true }),
  );
  return asHandover(out.Item);
}

/** An order's hand-overs, one per seller that has one (one Query of the order's partition). */
export async function listHandoversOfOrder(orderId: string): Promise<HandoverRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': orderPartition(orderId), ':prefix': HANDOVER_SK_PREFIX },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).flatMap((i) => asHandover(i) ?? []);
}

/** The hand-overs of some (order, seller) pairs (BatchGet), by `<orderId>_<sellerId>`. */
export async function getHandovers(
  pairs: Array<{ orderId: string; sellerId: string }>,
): Promise<Map<string, HandoverRecord>> {
  if (pairs.length === 0) return new Map();
  const items = await batchGet(pairs.map((p) => handoverKey(p.orderId, p.sellerId)));
  return new Map(
    items.flatMap((i) => {
      const h = asHandover(i);
      return h ? [[`${h.orderId}_${h.sellerId}`, h] as const] : [];
    }),
  );
}

/**
 * Writes the hand-over as `next` (a whole new version) only if the stored one is still at
 * `expectedVersion` (null: none stored yet). On the day indexes only while agreed. False when
 * the condition failed: someone else wrote it meanwhile; nothing was written.
 */
export async function writeHandover(next: HandoverRecord, expectedVersion: number | null): Promise<boolean> {
  const indexes = next.state === 'agreed' ? agreedHandoverIndexes({ ...next, pointId: next.point.id }) : {};
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...handoverKey(next.orderId, next.sellerId), ...indexes, ...next },
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': expectedVersion },
            }),
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** A listing of agreed hand-overs of one day (of every point, or of one), by slot time. */
const dayListing = (day: string, pointId: string | undefined) => {
  const index = pointId ? 'gsi2' : 'gsi1';
  const pk = pointId ? handoversOfPointDayPk(pointId, day) : handoversOfDayPk(day);
  return {
    index,
    pk,
    listing: {
      scope: `dashboard:${pk}`,
      position: TimePosition,
      sortKey: `${index}sk`,
      startKey: (position: string) => ({
        ...handoverKeyOfSlot(position.slice(position.lastIndexOf('#') + 1)),
        [`${index}pk`]: pk,
        [`${index}sk`]: position,
      }),
    },
  };
};

/** One page of the agreed hand-overs of `day` (of `pointId` when given), earliest slot first. */
export function listAgreedHandovers(
  day: string,
  pointId: string | undefined,
  limit: number,
  cursor: string | undefined,
): Promise<Page<HandoverRecord>> {
  const { index, pk, listing } = dayListing(day, pointId);
  return queryPage(
    listing,
    {
      IndexName: INDEX[index as 'gsi1' | 'gsi2'],
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: true,
    },
    limit,
    cursor,
    (i) => asHandover(i) ?? undefined,
  );
}

/** Every agreed hand-over of `day` (all pages of gsi1 HANDOVERS#<day>), for the reminder job. */
export async function agreedHandoversOfDay(day: string): Promise<HandoverRecord[]> {
  const items = await queryAll({
    IndexName: INDEX.gsi1,
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': handoversOfDayPk(day) },
  });
  return items.flatMap((i) => asHandover(i) ?? []);
}
