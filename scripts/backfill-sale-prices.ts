/**
 * Counts the sales completed before the price hint's stream processor ran (lib/books/price-hint.ts),
 * so the hint knows them too. Uses the stage's configuration (TABLE_NAME, DYNAMODB_ENDPOINT, ...):
 *   STAGE=local npx tsx scripts/backfill-sale-prices.ts
 * Reads gsi1 `BOOKS#S3` a page at a time (no Scan); safe to run again. It is also the migration
 * from the first shape of the sale-price items (one per campus): it deletes those of each ISBN it
 * counts (docs/browsing.md, "The price hint").
 */
import { backfillSalePrices } from '#lib/books/price-hint.ts';

const sales = await backfillSalePrices();
console.log(`counted ${sales} completed sales with an ISBN for the price hint`);
