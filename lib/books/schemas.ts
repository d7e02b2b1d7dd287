/**
 * The book as clients see it (every endpoint that returns books uses this), and the mapping from
 * the stored record. The owner is shown by id and first name only; the buyer by id only.
 */

import type { BookRecord } from '#lib/db/records.ts';
import { CONDITION_GRADES } from '#lib/values/condition.ts';
import { toDollars } from '#lib/values/money.ts';
import { bookPictures } from '#lib/values/photos.ts';
import * as z from '#lib/zod.ts';

export const BookStatusSchema = z.union([
  z.literal(0),
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(5),
]);

/** One processed photo: plain public URLs (never signed). */
export const Photo = z.strictObject({
  id: z.string(),
  url: z.string().check(z.url()),
  /** the 800 px rendition: what a phone shows large */
  mediumUrl: z.string().check(z.url()),
  thumbnailUrl: z.string().check(z.url()),
});

export const Book = z.strictObject({
  id: z.string(),
  name: z.string(),
  edition: z.number().check(z.int()),
  course: z.string(),
  /** dollars, at most 2 decimals (kept in cents inside the service) */
  price: z.number().check(z.gte(0), z.multipleOf(0.01)),
  condition: z.enum(CONDITION_GRADES),
  author: z.optional(z.string()),
  comments: z.string(),
  ISBN: z.nullable(z.string()),
  status: BookStatusSchema,
  date: z.iso.datetime(),
  owner: z.strictObject({ id: z.string(), firstName: z.string() }),
  buyer: z.optional(z.strictObject({ id: z.string() })),
  /** with the buyer: the order that bought it (its page, /orders/{id}, is the buyer's and seller's) */
  orderId: z.optional(z.string()),
  inCart: z.optional(z.boolean()),
  /** processed photos; the first one's thumbnail is the book's picture in lists */
  photos: z.array(Photo),
  /** the cover the ISBN lookup found (Open Library's cover host only): the picture while there is no photo */
  coverUrl: z.optional(z.string().check(z.url())),
  /**
   * getBook, to the book's owner only: the photo ids (addPhoto's `photoId`) whose upload is not yet
   * checked. An id neither here nor in `photos` was refused (or its upload never came).
   */
  pendingPhotos: z.optional(z.array(z.string())),
});
export type Book = z.infer<typeof Book>;

export function toApiBook(record: BookRecord, extra: { inCart?: boolean; showBuyer?: boolean } = {}): Book {
  const book: Book = {
    id: record.id,
    name: record.name,
    edition: record.edition,
    course: record.course,
    price: toDollars(record.priceCents),
    condition: record.condition,
    ...(record.author ? { author: record.author } : {}),
    comments: record.comments,
    ISBN: record.ISBN,
    status: record.status,
    date: record.date,
    owner: { id: record.ownerId, firstName: record.ownerFirstName },
    ...bookPictures(record.id, record),
  };
  if (extra.showBuyer && record.buyerId) {
    book.buyer = { id: record.buyerId };
    if (record.orderId) book.orderId = record.orderId;
  }
  if (extra.inCart !== undefined) book.inCart = extra.inCart;
  return book;
}

/** The ids of a book's photo slots: uploads not yet checked (the owner's `pendingPhotos`). */
export const pendingPhotosOf = (record: BookRecord): string[] => Object.keys(record.photoSlots ?? {});

/** What deleteBook answers for `permanent: true`: the book is gone. */
export const RemovedBook = z.strictObject({ id: z.string(), removed: z.literal(true) });
