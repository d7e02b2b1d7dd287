import { describe, expect, it } from 'vitest';
import * as rules from '#lib/photos/rules.ts';
import { parseIncomingKey } from '#lib/values/photos.ts';

describe('the upload policy', () => {
  it('pins the key, the exact content type and 1 byte to 5 MB', () => {
    expect(rules.uploadConditions('incoming/B/P', 'image/webp')).toEqual([
      { key: 'incoming/B/P' },
      ['eq', '$Content-Type', 'image/webp'],
      ['content-length-range', 1, 5 * 1024 * 1024],
    ]);
  });
});

describe('refusing an uploaded object', () => {
  const jpeg = 'image/jpeg' as const;
  it('refuses more than 5 MB, before reading it', () => {
    expect(rules.refusalOfObject({ size: rules.MAX_UPLOAD_BYTES + 1, contentType: jpeg }, jpeg)).toBe(
      'too-large',
    );
    expect(rules.refusalOfObject({ size: 6 * 1024 * 1024, contentType: jpeg }, jpeg)).toBe('too-large');
    expect(rules.refusalOfObject({ size: rules.MAX_UPLOAD_BYTES, contentType: jpeg }, jpeg)).toBeNull();
  });
  it('refuses a content type other than the declared one, and an empty file', () => {
    expect(rules.refusalOfObject({ size: 10, contentType: 'image/png' }, jpeg)).toBe('wrong-type');
    expect(rules.refusalOfObject({ size: 10, contentType: undefined }, jpeg)).toBe('wrong-type');
    expect(rules.refusalOfObject({ size: 0, contentType: jpeg }, jpeg)).toBe('not-an-image');
  });
  it('refuses bytes that do not decode, or decode as another format', () => {
    expect(rules.refusalOfBytes(jpeg, undefined)).toBe('not-an-image');
    expect(rules.refusalOfBytes(jpeg, 'png')).toBe('wrong-type');
    expect(rules.refusalOfBytes('image/webp', 'webp')).toBeNull();
    expect(rules.refusalOfBytes('image/png', 'png')).toBeNull();
  });
});

describe('counting photos', () => {
  it('counts live slots with the photos, up to 5', () => {
    const slot = (expiresAt: number) => ({ contentType: 'image/jpeg' as const, expiresAt });
    const live = rules.liveSlots({ a: slot(100), b: slot(99), c: slot(101) }, 100);
    expect(Object.keys(live)).toEqual(['c']);
    expect(rules.hasRoomForPhoto(3, live)).toBe(true);
    expect(rules.hasRoomForPhoto(4, live)).toBe(false);
  });
});

describe('incoming keys', () => {
  it('reads the book and photo of an upload key only', () => {
    expect(parseIncomingKey('incoming/01BOOK/01PHOTO')).toEqual({ bookId: '01BOOK', photoId: '01PHOTO' });
    expect(parseIncomingKey('photos/01BOOK/01PHOTO.webp')).toBeUndefined();
    expect(parseIncomingKey('incoming/a/b/c')).toBeUndefined();
  });
});
