/**
 * No dead ends (issue 33, item 6) in the browser: an empty search offers "Request this book",
 * which opens the request form filled in from the query, and "Sell yours"; a search for a course
 * tells a seller how many students of their campus want a book for it. On a phone and a desktop.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectAccessible, logIn } from '#tests/helpers/browser.ts';
import { api } from '#tests/helpers/e2e.ts';
import { webStackForFile } from '#tests/helpers/web-stack.ts';

const web = webStackForFile();

const freshCampus = () => `c${randomBytes(5).toString('hex')}.edu`;
const studentAt = (campus: string) =>
  createConfirmedUser({ emailAddress: `s-${randomBytes(5).toString('hex')}@${campus}` });
const letters = (n: number) => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');

describe('an empty search', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    it(`leads to a request filled in from the query (${viewport.width} wide)`, async () => {
      const student = await studentAt(freshCampus());
      const title = `Zq${letters(8)} Field Guide`;
      const page = await web().newPage(viewport);
      await logIn(page, student.user.emailAddress);
      await page.goto(`/?q=${encodeURIComponent(title)}`);
      await page.getByText(`No books found for “${title}”.`).waitFor();
      await expect.poll(() => page.getByRole('link', { name: 'Sell yours' }).count()).toBe(1);
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Request this book' }).click();
      await page.waitForURL(/\/requests\?/);
      // the page loads when first opened: its form, not the search field's "title, course" label
      await page.getByRole('heading', { level: 1, name: 'My requests and matches' }).waitFor();
      expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
      await page.getByLabel('Course', { exact: true }).fill('GEO 101');
      await page.getByRole('button', { name: 'Add the request' }).click();
      await page.getByText(`${title} · GEO 101`).waitFor();

      const res = await api('GET', '/api/user/getRequests', { token: student.token });
      expect(res.status).toBe(200);
      const requests = (res.body as { data: { name: string; course: string }[] }).data;
      expect(requests.map((r) => [r.name, r.course])).toEqual([[title, 'GEO 101']]);
    });
  }

  it('fills in the course or the ISBN when the query is one', async () => {
    const student = await studentAt(freshCampus());
    const page = await web().newPage();
    await logIn(page, student.user.emailAddress);
    const course = `ZQ${letters(3).toUpperCase()}-${100 + (randomBytes(1)[0] ?? 0)}`;
    await page.goto(`/?q=${encodeURIComponent(course)}`);
    await page.getByRole('link', { name: 'Request this book' }).click();
    await page.waitForURL(/\/requests\?/);
    // the page loads when first opened: its form, not the search field's "title, course" label
    await page.getByRole('heading', { level: 1, name: 'My requests and matches' }).waitFor();
    expect(await page.getByLabel('Course', { exact: true }).inputValue()).toBe(course);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');

    await page.goto('/?q=978-0-000-00000-2');
    await page.getByRole('link', { name: 'Request this book' }).click();
    await page.waitForURL(/\/requests\?/);
    // the page loads when first opened: its form, not the search field's "title, course" label
    await page.getByRole('heading', { level: 1, name: 'My requests and matches' }).waitFor();
    expect(await page.getByLabel('ISBN (optional)').inputValue()).toBe('978-0-000-00000-2');
  });
});

describe('a list of books that lacks the one a student needs', () => {
  it('offers to ask for it under the books, filled in from a search', async () => {
    const campus = freshCampus();
    const seller = await studentAt(campus);
    const title = `Zq${letters(8)} Optics`;
    const listed = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: makeBookBody({ name: title }),
    });
    expect(listed.status).toBe(201);
    const student = await studentAt(campus);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    await page.locator('ul.books.grid .card').first().waitFor();
    const ask = page.getByRole('link', { name: 'Ask for it' });
    expect(await ask.getAttribute('href')).toBe('/requests');
    // a search that found something: the request takes the query, as an empty search's does
    await page.goto(`/?q=${encodeURIComponent(title)}`);
    await page.locator('ul.books.grid .card').filter({ hasText: title }).waitFor();
    await expect
      .poll(() => ask.getAttribute('href'))
      .toBe(`/requests?name=${encodeURIComponent(title).replace(/%20/g, '+')}`);
    await expectAccessible(page);
    await ask.click();
    await page.getByRole('heading', { level: 1, name: 'My requests and matches' }).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
  });
});

describe('a request for a book already listed', () => {
  it('shows the match on the page a moment later, without a reload', async () => {
    const campus = freshCampus();
    const [seller, student] = await Promise.all([studentAt(campus), studentAt(campus)]);
    const course = `ZM${letters(4).toUpperCase()} ${100 + (randomBytes(1)[0] ?? 0)}`;
    const title = `Zq${letters(8)} Reader`;
    const listed = await api('POST', '/api/books/postBook', {
      token: seller.token,
      body: { name: title, edition: 1, course, price: 12, condition: 'good' },
    });
    expect(listed.status).toBe(201);
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/requests');
    await page.getByText('No matches yet: we notify you when one is listed.').waitFor();
    // sent empty: each field says what it needs; by the button only where to look, not the
    // service's generic "The request is invalid."
    await page.getByRole('button', { name: 'Add the request' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please check what is marked above.' }).waitFor();
    await expect
      .poll(() => page.getByLabel('Title', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    expect(await page.getByText('The request is invalid.').count()).toBe(0);
    // the same course, another title and edition: matched by the course, and told apart
    await page.getByLabel('Title', { exact: true }).fill('Companion Workbook');
    await page.getByLabel('Course', { exact: true }).fill(course);
    await page.getByLabel('Edition (optional)', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Add the request' }).click();
    await page
      .getByRole('link', { name: new RegExp(title) })
      .first()
      .waitFor({ timeout: 20_000 });
    // found while the student is on the page: it shows where its section was, under the form and
    // the requests, and nothing moves under them (on the next visit the matches lead the page)
    const order = ['Ask for a book', 'Your requests', 'Books that match'];
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(order);
    await page
      .getByText(
        `For your request “Companion Workbook”: the same course (${course}), another title: check it is the book you need. It is edition 1; you asked for edition 3.`,
      )
      .waitFor();
    await page.reload();
    await page
      .getByRole('link', { name: new RegExp(title) })
      .first()
      .waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Books that match',
      'Ask for a book',
      'Your requests',
    ]);
  });
});

describe('the request form', () => {
  it('fills the title and edition from a typed ISBN, as the Sell form does, and asks by that ISBN', async () => {
    const student = await studentAt(freshCampus());
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, student.user.emailAddress);
    await page.goto('/requests');
    await page.getByLabel('ISBN (optional)').waitFor();
    // the ISBN first: what a reading list gives, and what finds the rest
    const order = await page.locator('form label').allInnerTexts();
    expect(order.findIndex((t) => /^ISBN/.test(t))).toBe(0);
    // Griffiths in the ISBN stand-in (scripts/local/isbn-fixtures.ts), edition "Fourth edition": an
    // ISBN no other browser or HTTP test looks up (the e2e table, and its lookup cache, are shared)
    await page.getByLabel('ISBN (optional)').fill('978-0-321-85656-2');
    await page.getByRole('status').filter({ hasText: 'Found “Introduction to Electrodynamics”' }).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(
      'Introduction to Electrodynamics',
    );
    expect(await page.getByLabel('Edition (optional)').inputValue()).toBe('4');
    await expectAccessible(page);
    await page.getByLabel('Course', { exact: true }).fill('CSC 173');
    await page.getByRole('button', { name: 'Add the request' }).click();
    await page.getByText('Request added:').waitFor();
    const stored = await api('GET', '/api/user/getRequests', { token: student.token });
    expect(stored.status).toBe(200);
    expect((stored.body as { data: unknown[] }).data).toMatchObject([
      {
        name: 'Introduction to Electrodynamics',
        course: 'CSC 173',
        edition: 4,
        ISBN: '9780321856562',
      },
    ]);
    await page.getByText('A request closes by itself when you buy the book it asks for.').waitFor();
    // the form is empty again: no lookup is left filling it
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');
  });
});

describe('a search with nothing to search by, or too long', () => {
  it('says what to type, in words, without asking the service', async () => {
    const page = await web().newPage({ width: 390, height: 844 });
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    for (const q of ['..', '.', '  -  ']) {
      await page.goto(`/?q=${encodeURIComponent(q)}`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Search for a word of the title, an author, a course or an ISBN.' })
        .waitFor();
    }
    expect(asked.filter((p) => p.startsWith('/api/books/search'))).toEqual([]);
    // too long: the service's own sentence, not "The request is invalid."
    await page.goto(`/?q=${'a'.repeat(101)}`);
    await page.getByRole('alert').filter({ hasText: 'Use at most 100 characters.' }).waitFor();
    await expectAccessible(page);
  });
});

describe('a search for a course', () => {
  it('tells a seller how many students of their campus want a book for it', async () => {
    const campus = freshCampus();
    const [seller, ...buyers] = await Promise.all([studentAt(campus), studentAt(campus), studentAt(campus)]);
    const number = 100 + (randomBytes(1)[0] ?? 0);
    const course = `ZQ${letters(4).toUpperCase()} ${number}`;
    // the first buyer asks twice (two books for the course): still one student
    for (const b of [...buyers, buyers[0] as (typeof buyers)[number]]) {
      const res = await api('POST', '/api/books/requestBook', {
        token: b.token,
        body: { name: `Wanted ${letters(6)}`, course },
      });
      expect(res.status).toBe(201);
    }
    const page = await web().newPage({ width: 390, height: 844 });
    await logIn(page, seller.user.emailAddress);
    await page.goto(`/?q=${encodeURIComponent(course.replace(' ', '-').toLowerCase())}`);
    await page.getByText(`2 students want a book for ${course}.`).waitFor();
    await expectAccessible(page);
    // a student who asked sees only the others: their own request is not "a student who wants it"
    const asker = await web().newPage({ width: 390, height: 844 });
    await logIn(asker, (buyers[1] as (typeof buyers)[number]).user.emailAddress);
    await asker.goto(`/?q=${encodeURIComponent(course)}`);
    await asker.getByText(`1 student wants a book for ${course}.`).waitFor();
  });
});
