/**
 * Gives each askSeller message written before messages held their book's title that title, so
 * the thread names the book it asks about (scripts/migrations/message-book-names.ts). Run once
 * per stage after the deploy that writes the new shape; safe to run again. Uses the stage's
 * configuration (TABLE_NAME, DYNAMODB_ENDPOINT, ...):
 *   STAGE=dev npx tsx scripts/backfill-message-book-names.ts
 */
import { backfillMessageBookNames } from '#scripts/migrations/message-book-names.ts';

const done = await backfillMessageBookNames(1000, (d) =>
  console.log(`... ${d.titled} messages titled so far, ${d.bookGone} whose book is gone`),
);
console.log(`titled ${done.titled} messages; ${done.bookGone} asked about a book that is gone`);
