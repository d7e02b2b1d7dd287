/**
 * The browsing migration (issue 13; scripts/migrations/browsing.ts): prices in cents and condition
 * grades on every stored book and cart snapshot. Resumable: after every page the position is written to the
 * checkpoint file, and a run finds it there and carries on; it is removed when the table is done.
 * Safe to run while the service runs, and again (it changes only outdated items).
 *   STAGE=local npx tsx scripts/migrate-browsing.ts [--checkpoint .migrate-browsing.json]
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { migrateTable, type StartKey } from '#scripts/migrations/browsing.ts';

const flag = process.argv.indexOf('--checkpoint');
const file = flag >= 0 ? String(process.argv[flag + 1]) : '.migrate-browsing.json';
const startKey = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StartKey) : undefined;
if (startKey) console.log(`resuming from ${file}`);

const counts = await migrateTable({
  startKey,
  checkpoint: (next) => (next ? writeFileSync(file, JSON.stringify(next)) : rmSync(file, { force: true })),
});
console.log(
  `scanned ${counts.scanned}, migrated ${counts.migrated}, changed meanwhile ${counts.raced} (run again)`,
);
if (counts.raced > 0) process.exitCode = 2;
