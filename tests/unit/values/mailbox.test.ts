import { describe, expect, it } from 'vitest';
import { mailboxOf } from '#lib/values/mailbox.ts';

describe('mailboxOf: the mailbox an address reaches', () => {
  it('drops the sub-address after the first + on every campus', () => {
    expect(mailboxOf('mallory+1@audit.edu', [])).toBe('mallory@audit.edu');
    expect(mailboxOf('mallory+a+b@audit.edu', [])).toBe('mallory@audit.edu');
    expect(mailboxOf('mallory@audit.edu', [])).toBe('mallory@audit.edu');
  });

  it('keeps the dots except on a Gmail-style campus, where they are folded', () => {
    expect(mailboxOf('jo.ann.lee@uni.edu', [])).toBe('jo.ann.lee@uni.edu');
    expect(mailboxOf('jo.ann.lee@uni.edu', ['other.edu'])).toBe('jo.ann.lee@uni.edu');
    expect(mailboxOf('jo.ann.lee+x@uni.edu', ['UNI.edu'])).toBe('joannlee@uni.edu');
    expect(mailboxOf('joannlee@uni.edu', ['uni.edu'])).toBe('joannlee@uni.edu');
  });

  it('leaves a local part alone that would become empty, and a leading + as it is', () => {
    expect(mailboxOf('+tag@uni.edu', [])).toBe('+tag@uni.edu');
    expect(mailboxOf('...@uni.edu', ['uni.edu'])).toBe('...@uni.edu');
  });

  it('only looks at the domain after the last @', () => {
    expect(mailboxOf('a.b+c@sub.uni.edu', ['uni.edu'])).toBe('a.b@sub.uni.edu');
  });
});
