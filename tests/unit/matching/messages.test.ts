import { describe, expect, it } from 'vitest';
import { matchContent, receiptContent, statusContent } from '#lib/notifications/messages.ts';
import { notificationId } from '#lib/notifications/notify.ts';

const book = { name: 'Intro <script>alert(1)</script> & "Co"', course: 'CSC 171', ISBN: '9780306406157' };

describe('notification and e-mail content', () => {
  it('names the book in the match message and e-mail, escaping it in HTML', () => {
    const c = matchContent(book);
    expect(c.message).toContain(book.name);
    const mail = c.email('Ada', 'https://books.example.edu/books/b1?x=1&y=2');
    expect(mail.subject).toBe(`Match for your book request: ${book.name}`);
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain('ISBN 9780306406157');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;');
    // one link to the page it talks about, in both parts
    expect(mail.text).toContain('See the book: https://books.example.edu/books/b1?x=1&y=2');
    expect(mail.html).toContain('<a href="https://books.example.edu/books/b1?x=1&#38;y=2">See the book</a>');
  });

  it.each([
    ['sold', 'seller', /^Your book was bought/, 'See the order'],
    ['verified', 'seller', /^Your sold book was checked/, 'See the order'],
    ['verified', 'buyer', /^Your book was checked/, 'See your order'],
    ['delivered', 'seller', /^You were paid/, 'See the order'],
    ['delivered', 'buyer', /^Your book was handed over/, 'See your order'],
    ['cancelled', 'seller', /^A purchase was cancelled/, 'See the order'],
    ['cancelled', 'buyer', /^Your purchase was cancelled/, 'See your order'],
  ] as const)('tells the %s %s in its own words', (kind, role, subject, label) => {
    const c = statusContent(kind, role, { ...book, ISBN: null });
    const mail = c.email('', 'https://books.example.edu/orders');
    expect(mail.subject).toMatch(subject);
    expect(c.message).toContain(book.name);
    expect(mail.text.startsWith('Hello,')).toBe(true);
    expect(mail.text).toContain(`${label}: https://books.example.edu/orders`);
  });

  it('says what a cancel did: relisted or left unlisted, charged and refunded or never charged', () => {
    const says = (role: 'seller' | 'buyer', relisted: boolean, refunded: boolean) =>
      statusContent('cancelled', role, { ...book, ISBN: null }, 'Lost.', { relisted, refunded }).message;
    expect(says('seller', true, false)).toMatch(/was cancelled; it is listed again\. Reason: Lost\.$/);
    expect(says('seller', false, true)).toMatch(/was cancelled; it stays unlisted\. Reason: Lost\.$/);
    expect(says('buyer', true, false)).toMatch(
      /was cancelled\. You were not charged for it\. Reason: Lost\.$/,
    );
    expect(says('buyer', true, true)).toMatch(
      /was cancelled\. The payment taken for it is refunded\. Reason: Lost\.$/,
    );
  });

  it("writes the buyer's receipt: each book with its price, the total in dollars, what comes next, escaped in HTML", () => {
    const one = receiptContent({
      books: [{ ...book, priceCents: 1050 }],
      subtotalCents: 1050,
      feeCents: 53,
      totalCents: 1103,
    });
    expect(one.message).toBe(
      'You ordered a book for $11.03. Next: propose a time to hand over on your order page. An administrator checks each book at the hand-over, and you are charged then.',
    );
    const mail = one.email('Ada', 'https://books.example.edu/orders/o1');
    expect(mail.subject).toBe('Your receipt: a book for $11.03');
    expect(mail.text.split('\n')).toEqual([
      'Hello Ada,',
      '',
      'Thank you for your order of a book:',
      `- "${book.name}" (CSC 171, ISBN 9780306406157): $10.50`,
      'Books $10.50 + service fee $0.53 = total $11.03.',
      'Next: propose a time to hand over on your order page. An administrator checks each book at the hand-over, and you are charged then.',
      'See your order: https://books.example.edu/orders/o1',
      '',
      'Campus Books',
    ]);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('<a href="https://books.example.edu/orders/o1">See your order</a>');
    const three = receiptContent({
      books: [0, 1, 2].map((i) => ({ ...book, ISBN: null, priceCents: i })),
      subtotalCents: 3,
      feeCents: 0,
      totalCents: 3,
    });
    expect(three.message).toMatch(/^You ordered 3 books for \$0\.03\. /);
  });

  it('derives the same notification id from the same cause, and different ids otherwise', () => {
    expect(notificationId('u1', 'match#b1#d')).toBe(notificationId('u1', 'match#b1#d'));
    expect(notificationId('u1', 'match#b1#d')).not.toBe(notificationId('u2', 'match#b1#d'));
    expect(notificationId('u1', 'match#b1#d')).not.toBe(notificationId('u1', 'match#b1#e'));
    expect(notificationId('u1', 'x')).toMatch(/^[A-Za-z0-9_-]{26}$/);
  });
});
