/**
 * The stream consumer's write units per posted book: one listed book (the benchmark's most common
 * title, at the bench campus, where the reader's request matches it) is stored, then each stream
 * processor is applied to its INSERT record with consumed capacity measured. Copying the list
 * fields onto the index entries (search, price, matches) multiplies writes: this keeps them counted.
 */

import { ulid } from 'ulid';
import { searchEntriesOf } from '#lib/books/search-index.ts';
import { bookItem } from '#lib/db/books.ts';
import { bookKey } from '#lib/db/keys.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { PutCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring, stopMeasuring } from '#lib/table/metrics.ts';
import { BENCH_CAMPUS, CATALOGUE, courseNorm } from './data.ts';

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface ConsumerWrites {
  /** the posted book's title and course */
  book: string;
  /** write capacity units of every processor together */
  writeUnits: number;
  /** write units and calls per processor (only processors that wrote) */
  byProcessor: Array<{ name: string; writeUnits: number; calls: number }>;
  /** how many search entries the book has, and the size of one (JSON bytes, about its item size) */
  searchEntries: number;
  searchEntryBytes: number;
}

export async function measureConsumerWrites(
  ownerId: string,
  ownerFirstName: string,
): Promise<ConsumerWrites> {
  const { processors } = await import('#functions/streams/processors.ts');
  const entry = CATALOGUE[0] as (typeof CATALOGUE)[number];
  const book: BookRecord = {
    type: 'book',
    id: ulid(),
    name: entry.name,
    edition: 3,
    course: entry.course,
    courseNorm: courseNorm(entry.course),
    priceCents: 4550,
    condition: 'good',
    comments: 'Posted by the benchmark.',
    ISBN: '9780134689562',
    status: 0,
    date: new Date().toISOString(),
    ownerId,
    ownerFirstName,
    campus: BENCH_CAMPUS,
  };
  const item = bookItem(book);
  await db.send(new PutCommand({ TableName: TABLE, Item: item }));
  const change = {
    eventName: 'INSERT' as const,
    eventId: `consumer-writes-${book.id}`,
    sequenceNumber: '0',
    keys: bookKey(book.id),
    oldImage: undefined,
    newImage: item,
  };
  const byProcessor: ConsumerWrites['byProcessor'] = [];
  for (const p of processors) {
    if (!p.wants(change)) continue;
    startMeasuring({ capacity: true });
    try {
      await p.apply(change);
      const writes = measured().operations.filter((o) => WRITES.has(o.command));
      const units = writes.reduce((s, o) => s + o.capacityUnits, 0);
      if (writes.length > 0) byProcessor.push({ name: p.name, writeUnits: units, calls: writes.length });
    } finally {
      stopMeasuring();
    }
  }
  const entries = [...searchEntriesOf(item).values()];
  return {
    book: `${book.name} (${book.course})`,
    writeUnits: byProcessor.reduce((s, p) => s + p.writeUnits, 0),
    byProcessor,
    searchEntries: entries.length,
    searchEntryBytes: Buffer.byteLength(JSON.stringify(entries[0] ?? {})),
  };
}
