/**
 * A hand-over as buyer, seller and admins see it (getOrder, proposeHandover, answerHandover, the
 * dashboard): where, when, and whether it is proposed (pending), agreed or declined. The rules that
 * write it are in lib/handover/service.ts; this is the answer shape, here so getOrder can give it.
 */
import type { HandoverRecord } from '#lib/db/handovers.ts';
import * as z from '#lib/zod.ts';

export const Handover = z.strictObject({
  /** the current proposal: answerHandover takes it; a new proposal gets a new id */
  proposalId: z.string(),
  orderId: z.string(),
  sellerId: z.string(),
  buyerId: z.string(),
  /** the seller's books in the order it covers */
  bookIds: z.array(z.string()),
  point: z.strictObject({
    id: z.string(),
    name: z.string(),
    location: z.string(),
    timeZone: z.string(),
  }),
  /** the slot (ISO-8601 UTC) */
  at: z.iso.datetime(),
  /** the slot's date at its point */
  day: z.string(),
  state: z.enum(['pending', 'agreed', 'declined']),
  /** who proposed it (the other side answers) */
  proposedBy: z.string(),
  proposedAt: z.iso.datetime(),
  answeredAt: z.nullable(z.iso.datetime()),
});
export type Handover = z.infer<typeof Handover>;

export const toApiHandover = (h: HandoverRecord): Handover => ({
  proposalId: h.proposalId,
  orderId: h.orderId,
  sellerId: h.sellerId,
  buyerId: h.buyerId,
  bookIds: h.bookIds,
  point: { id: h.point.id, name: h.point.name, location: h.point.location, timeZone: h.point.timeZone },
  at: h.at,
  day: h.day,
  state: h.state,
  proposedBy: h.proposedBy,
  proposedAt: h.proposedAt,
  answeredAt: h.answeredAt ?? null,
});
