/**
 * Indexes every existing user for the dashboard's findUsers (users created before the stream
 * processor ran). Uses the stage's configuration (TABLE_NAME, DYNAMODB_ENDPOINT, ...):
 *   STAGE=local npx tsx scripts/backfill-user-search.ts
 */
import { backfillUserSearch } from '#lib/dashboard/user-search.ts';

const users = await backfillUserSearch();
console.log(`indexed ${users} users for search`);
