/**
 * The reactions to table changes, run in this order for every stream record by the one stream
 * consumer (functions/streams/consumer.ts). Each area registers its processor here.
 */

import { salePricesProcessor } from '#lib/books/price-hint.ts';
import { priceIndexProcessor } from '#lib/books/price-index.ts';
import { searchIndexProcessor } from '#lib/books/search-index.ts';
import { messageNotificationsProcessor } from '#lib/conversations/mail.ts';
import { userSearchProcessor } from '#lib/dashboard/user-search.ts';
import { weeklyStatsProcessor } from '#lib/dashboard/weekly-stats.ts';
import { matchingProcessor } from '#lib/matching/processor.ts';
import { statusNotificationsProcessor } from '#lib/notifications/processor.ts';
import { receiptProcessor } from '#lib/notifications/receipt.ts';
import { bookPhotosCleanupProcessor } from '#lib/photos/cleanup.ts';
import { savedBooksProcessor } from '#lib/saved/notify.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';

export const processors: ChangeProcessor[] = [
  // listings: the search index and the price-ordered listings of listed books
  searchIndexProcessor,
  priceIndexProcessor,
  // the price hint of the ISBN lookup: the last 50 sale prices of an ISBN, per campus and overall
  salePricesProcessor,
  // matching: wanted books <-> listed books; status changes -> notifications
  matchingProcessor,
  statusNotificationsProcessor,
  // checkout: the buyer's receipt (an order written -> notification and e-mail)
  receiptProcessor,
  // saved books: their savers hear of a lower price, a sale or an unlisting
  savedBooksProcessor,
  // dashboard: the user search index (findUsers)
  userSearchProcessor,
  // dashboard: statistics over time (orders, gross, fees, new listings per week and campus)
  weeklyStatsProcessor,
  // photos: a book removed for good takes its files with it
  bookPhotosCleanupProcessor,
  // conversations: a new message -> the other side's notification and (at most every 15 minutes) e-mail
  messageNotificationsProcessor,
];
