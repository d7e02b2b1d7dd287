import type { Page } from '#lib/table/page.ts';
import * as z from '#lib/zod.ts';
import { http } from './index.ts';

type Schema = z.ZodMiniType;

/**
 * A route that answers the signed-in caller's own list, a page at a time (their orders, purchases,
 * sales, posts, notifications), declared once: GET with `query`, answered by
 * `list(callerId, query)`'s `Page<T>` of `item`s, the cursor in `next`. The caller's id comes from
 * the verified token only, so no route of this kind can list someone else's.
 */
export const callerPage = <Q extends Schema, I extends Schema>(
  spec: { query: Q; item: I; summary: string },
  list: (userId: string, query: z.output<Q>) => Promise<Page<z.output<I>>>,
) =>
  http(
    { query: spec.query, response: z.array(spec.item), paged: true, summary: spec.summary },
    async (input) => list(input.principal.userId, input.query as z.output<Q>),
  );
