/**
 * The reactions to table changes, run in this order for every stream record by the one stream
 * consumer (functions/streams/consumer.ts). Each area registers its processor here.
 */

import { searchIndexProcessor } from '#lib/books/search-index.ts';
import { userSearchProcessor } from '#lib/dashboard/user-search.ts';
import { matchingProcessor } from '#lib/matching/processor.ts';
import { statusNotificationsProcessor } from '#lib/notifications/processor.ts';
import { bookPhotosCleanupProcessor } from '#lib/photos/cleanup.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';

export const processors: ChangeProcessor[] = [
  // listings: the search index of listed books
  searchIndexProcessor,
  // matching: wanted books <-> listed books; status changes -> notifications
  matchingProcessor,
  statusNotificationsProcessor,
  // dashboard: the user search index (findUsers)
  userSearchProcessor,
  // photos: a book removed for good takes its files with it
  bookPhotosCleanupProcessor,
];
