/**
 * Gives each photo processed before photos had a middle rendition its 800 px file, made from the
 * stored 1600 px photo, so a phone's book page shows it sharp (scripts/migrations/photo-renditions.ts).
 * Run once per stage after the deploy that writes the new files; safe to run again. Uses the stage's
 * configuration (TABLE_NAME, PHOTOS_BUCKET, DYNAMODB_ENDPOINT, ...):
 *   STAGE=dev npx tsx scripts/backfill-photo-renditions.ts
 */
import { backfillPhotoRenditions } from '#scripts/migrations/photo-renditions.ts';

const done = await backfillPhotoRenditions(1000, (d) =>
  console.log(
    `... ${d.rendered} renditions written so far, ${d.present} already there, ${d.missing} photos missing`,
  ),
);
console.log(
  `wrote ${done.rendered} middle renditions; ${done.present} photos had theirs; ${done.missing} photos had no stored file to render from`,
);
