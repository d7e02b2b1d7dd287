/**
 * Reading a stream record (lib/streams/consume.ts `toChange`): an empty map decoded as `{}` by the
 * AWS SDK's stream reader (the local stack, the tests) reads as an empty map, at the top level, in
 * a map and in a list, so a record with one (a book whose last photo slot went) does not fail.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { toChange } from '#lib/streams/consume.ts';

describe('toChange', () => {
  it('reads empty maps written as {} and as { M: {} } alike', () => {
    const record = {
      eventID: 'e1',
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: '1',
        Keys: { pk: { S: 'BOOK#1' }, sk: { S: 'BOOK' } },
        OldImage: { photoSlots: { M: { p1: { N: '5' } } }, photos: { L: [] } },
        NewImage: {
          photoSlots: {},
          nested: { M: { inner: {} } },
          list: { L: [{}, { M: {} }, { S: 'x' }] },
          photos: { L: [] },
        },
      },
    } as unknown as DynamoDBRecord;
    const change = toChange(record);
    expect(change.oldImage).toEqual({ photoSlots: { p1: 5 }, photos: [] });
    expect(change.newImage).toEqual({
      photoSlots: {},
      nested: { inner: {} },
      list: [{}, {}, 'x'],
      photos: [],
    });
    expect(change.keys).toEqual({ pk: 'BOOK#1', sk: 'BOOK' });
  });
});
