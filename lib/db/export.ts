/** Reads for exportData that no other area needs: a user's orders as buyer (gsi2), every page. */

import { queryAll } from '#lib/table/page.ts';
import { INDEX, ordersOfBuyerPk } from './keys.ts';

export const allOrdersOfBuyer = (buyerId: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    IndexName: INDEX.gsi2,
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': ordersOfBuyerPk(buyerId) },
  });
