/**
 * `npm run demo` (`npm start -- --demo`): a local market with something in it. Students, books with
 * photos, a wanted book that gets matched, a question to a seller and a purchase waiting for the
 * hand-over, all made through the HTTP API the way the web app makes them (sign-up, the e-mailed
 * confirmation read from the SES emulator, postBook, addPhoto's presigned POST, requestBook,
 * askSeller, addToCart, checkoutCart), so the stream consumer, the matcher, the photo processor and
 * the e-mails run as they do for real users. Only for the local stack: it reads the SES emulator.
 *
 * The covers are drawn here (a coloured SVG with the title, made a JPEG by sharp): the machine is
 * offline, and a drawn cover still shows every photo size the processor makes.
 */
import sharp from 'sharp';

/** Every demo account's password (printed by `npm run demo`). */
export const DEMO_PASSWORD = 'campus-books-demo';
/** The campus of the demo accounts: the one `npm start` gives a hand-over point. */
export const DEMO_CAMPUS = 'uni.edu';

export interface DemoStudent {
  key: 'owner' | 'ada' | 'ben' | 'cleo';
  firstName: string;
  lastName: string;
  /** what the printed table says the account is for */
  role: string;
}

export const DEMO_STUDENTS: readonly DemoStudent[] = [
  { key: 'owner', firstName: 'Olivia', lastName: 'Owner', role: 'owner: the dashboard at /dashboard' },
  {
    key: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'sells five books, one of them bought by Cleo',
  },
  { key: 'ben', firstName: 'Ben', lastName: 'Okafor', role: 'wants a book Cleo sells; asked Ada a question' },
  { key: 'cleo', firstName: 'Cleo', lastName: 'Martin', role: 'sells three books; bought one of Ada’s' },
];

/** The address of a demo account, e.g. `ada.demo@uni.edu`. */
export const demoAddress = (key: DemoStudent['key']): string => `${key}.demo@${DEMO_CAMPUS}`;

interface DemoBook {
  seller: 'ada' | 'cleo';
  name: string;
  author: string;
  edition: number;
  course: string;
  /** dollars, as the API takes them */
  price: number;
  condition: 'new' | 'like-new' | 'very-good' | 'good' | 'acceptable';
  comments: string;
  ISBN: string;
  /** the cover's colour */
  colour: string;
}

/** Real textbooks the ISBN stand-in knows (scripts/local/isbn-fixtures.ts). */
export const DEMO_BOOKS: readonly DemoBook[] = [
  {
    seller: 'ada',
    name: 'Calculus: Early Transcendentals',
    author: 'James Stewart',
    edition: 8,
    course: 'MATH 101',
    price: 45,
    condition: 'very-good',
    comments: 'A few pencil notes in chapter 3, erased. No torn pages.',
    ISBN: '9781285741550',
    colour: '#1d4e89',
  },
  {
    seller: 'ada',
    name: 'Introduction to Algorithms',
    author: 'Thomas H. Cormen',
    edition: 3,
    course: 'CSC 240',
    price: 52.5,
    condition: 'good',
    comments: 'Highlighting in the first five chapters. Spine is fine.',
    ISBN: '9780262033848',
    colour: '#7a1f3d',
  },
  {
    seller: 'ada',
    name: 'Campbell Biology',
    author: 'Lisa A. Urry',
    edition: 11,
    course: 'BIO 110',
    price: 60,
    condition: 'like-new',
    comments: 'Used for one term, no writing.',
    ISBN: '9780134093413',
    colour: '#2e7d32',
  },
  {
    seller: 'ada',
    name: 'Principles of Economics',
    author: 'N. Gregory Mankiw',
    edition: 7,
    course: 'ECON 101',
    price: 30,
    condition: 'good',
    comments: 'Cover a little bent at one corner.',
    ISBN: '9781285165875',
    colour: '#b35c00',
  },
  {
    seller: 'ada',
    name: 'Discrete Mathematics and Its Applications',
    author: 'Kenneth H. Rosen',
    edition: 7,
    course: 'MATH 150',
    price: 38,
    condition: 'acceptable',
    comments: 'Well used: notes in the margins, all pages there.',
    ISBN: '9780073383095',
    colour: '#4a148c',
  },
  {
    seller: 'cleo',
    name: 'Linear Algebra and Its Applications',
    author: 'David C. Lay',
    edition: 5,
    course: 'MATH 210',
    price: 40,
    condition: 'very-good',
    comments: 'Comes with the study guide.',
    ISBN: '9780321982384',
    colour: '#00695c',
  },
  {
    seller: 'cleo',
    name: 'Organic Chemistry',
    author: 'Jonathan Clayden',
    edition: 2,
    course: 'CHEM 203',
    price: 55,
    condition: 'good',
    comments: 'Some highlighting.',
    ISBN: '9780199270293',
    colour: '#8e2430',
  },
  {
    seller: 'cleo',
    name: 'Physics for Scientists and Engineers',
    author: 'Raymond A. Serway',
    edition: 9,
    course: 'PHYS 121',
    price: 48,
    condition: 'like-new',
    comments: 'Bought new last year, barely opened.',
    ISBN: '9781133947271',
    colour: '#263238',
  },
];

/** Which demo book Ben wants (listed by Cleo after his request, so the matcher finds it). */
const WANTED = 'Linear Algebra and Its Applications';
/** Which demo book Ben asks Ada about, and which Cleo buys. */
const ASKED = 'Introduction to Algorithms';
const BOUGHT = 'Principles of Economics';

export interface DemoOptions {
  /** the HTTP API, e.g. http://127.0.0.1:8080 */
  apiUrl: string;
  /** the SES emulator, e.g. http://127.0.0.1:8005 */
  sesUrl: string;
  log?: (line: string) => void;
}

export interface DemoResult {
  /** false: the demo accounts were there already (a persisted table), nothing was written */
  created: boolean;
  /** the listed books' ids, in DEMO_BOOKS' order (none when nothing was written) */
  bookIds: string[];
}

class DemoError extends Error {}

async function call(apiUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as { data?: unknown; error?: string } };
}

/** The answer's `data`, or an error naming the call and what it answered. */
async function expectData<T>(
  apiUrl: string,
  method: string,
  path: string,
  expected: number,
  body?: unknown,
  token?: string,
): Promise<T> {
  const res = await call(apiUrl, method, path, body, token);
  if (res.status !== expected)
    throw new DemoError(
      `${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
    );
  return res.body.data as T;
}

interface SesMessage {
  subject: string;
  destination: { to: string[] };
  body: { text?: string };
}

/** The confirmation token e-mailed to `to`, once it is in the SES emulator's store. */
async function confirmationToken(sesUrl: string, to: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const store = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: SesMessage[] };
    const mail = store.emails
      .filter((m) => m.destination.to.includes(to) && /Confirm your Campus Books account/.test(m.subject))
      .at(-1);
    const token = /(?:\/api\/auth\/confirm\/|token=)([A-Za-z0-9_-]{43})/.exec(mail?.body.text ?? '')?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new DemoError(`no confirmation e-mail to ${to} reached the SES emulator within 30 s`);
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Splits a title into lines of at most `width` characters, at spaces. */
function lines(title: string, width: number): string[] {
  const out: string[] = [];
  for (const word of title.split(' ')) {
    const last = out.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}

/** A 1200 x 1600 JPEG that looks like the book's cover: its colour, title, author and course. */
export async function drawCover(
  book: Pick<DemoBook, 'name' | 'author' | 'course' | 'colour'>,
): Promise<Buffer> {
  const title = lines(book.name, 16)
    .map((line, i) => `<tspan x="110" dy="${i === 0 ? 0 : 118}">${escapeXml(line)}</tspan>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600">
  <rect width="1200" height="1600" fill="${book.colour}"/>
  <rect x="60" y="60" width="1080" height="1480" fill="none" stroke="#ffffff" stroke-opacity="0.5" stroke-width="6"/>
  <text x="110" y="420" font-family="DejaVu Sans, sans-serif" font-size="100" font-weight="bold" fill="#ffffff">${title}</text>
  <text x="110" y="1330" font-family="DejaVu Sans, sans-serif" font-size="64" fill="#ffffff">${escapeXml(book.author)}</text>
  <text x="110" y="1440" font-family="DejaVu Sans, sans-serif" font-size="52" fill="#ffffff" fill-opacity="0.8">${escapeXml(book.course)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

interface Upload {
  photoId: string;
  upload: { url: string; fields: Record<string, string> };
}

async function addCover(apiUrl: string, token: string, bookId: string, jpeg: Buffer): Promise<void> {
  const added = await expectData<Upload>(
    apiUrl,
    'POST',
    '/api/books/addPhoto',
    201,
    { bookId, contentType: 'image/jpeg' },
    token,
  );
  const form = new FormData();
  for (const [k, v] of Object.entries(added.upload.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await fetch(added.upload.url, { method: 'POST', body: form });
  if (!res.ok) throw new DemoError(`the photo store refused a cover (${res.status})`);
}

/** Signs a demo student up, confirms the e-mailed link and logs in; answers the bearer token. */
async function enrol(opts: DemoOptions, student: DemoStudent): Promise<string> {
  const emailAddress = demoAddress(student.key);
  await expectData(opts.apiUrl, 'POST', '/api/auth/signup', 202, {
    emailAddress,
    password: DEMO_PASSWORD,
    firstName: student.firstName,
    lastName: student.lastName,
    university: 'Uni',
    campusMailbox: `Box ${100 + DEMO_STUDENTS.indexOf(student)}`,
    paymentUsername: `@${student.firstName.toLowerCase()}-demo`,
  });
  const token = await confirmationToken(opts.sesUrl, emailAddress);
  await expectData(opts.apiUrl, 'POST', '/api/auth/confirm', 200, { token, password: DEMO_PASSWORD });
  return login(opts.apiUrl, emailAddress);
}

async function login(apiUrl: string, emailAddress: string): Promise<string> {
  const data = await expectData<{ token: string }>(apiUrl, 'POST', '/api/auth/login', 200, {
    emailAddress,
    password: DEMO_PASSWORD,
  });
  return data.token;
}

/**
 * Fills the local market. Answers `created: false` and writes nothing when Ada's demo account can
 * already log in (a persisted table that was filled before).
 */
export async function seedDemo(opts: DemoOptions): Promise<DemoResult> {
  const log = opts.log ?? (() => undefined);
  const already = await call(opts.apiUrl, 'POST', '/api/auth/login', {
    emailAddress: demoAddress('ada'),
    password: DEMO_PASSWORD,
  });
  if (already.status === 200) {
    log('the demo accounts are there already: nothing added');
    return { created: false, bookIds: [] };
  }

  const tokens = {} as Record<DemoStudent['key'], string>;
  for (const student of DEMO_STUDENTS) {
    log(`signing up ${demoAddress(student.key)} and confirming its e-mail...`);
    tokens[student.key] = await enrol(opts, student);
  }

  const ids = new Map<string, string>();
  const post = async (book: DemoBook) => {
    const { seller, colour: _colour, ...body } = book;
    const posted = await expectData<{ id: string }>(
      opts.apiUrl,
      'POST',
      '/api/books/postBook',
      201,
      body,
      tokens[seller],
    );
    ids.set(book.name, posted.id);
    await addCover(opts.apiUrl, tokens[seller], posted.id, await drawCover(book));
    log(`listed "${book.name}" (${book.course}, $${book.price.toFixed(2)}) with a cover photo`);
  };

  // Ben's request comes first, so listing the book he wants is a match (an e-mail and a notification).
  const wanted = DEMO_BOOKS.find((b) => b.name === WANTED) as DemoBook;
  await expectData(
    opts.apiUrl,
    'POST',
    '/api/books/requestBook',
    201,
    { name: wanted.name, course: wanted.course, ISBN: wanted.ISBN },
    tokens.ben,
  );
  log(`Ben asked for "${wanted.name}"`);
  for (const book of DEMO_BOOKS) await post(book);

  await expectData(
    opts.apiUrl,
    'POST',
    '/api/user/askSeller',
    201,
    {
      bookId: ids.get(ASKED),
      text: 'Hi Ada, is the CD still in the back cover? Could we meet at the library?',
    },
    tokens.ben,
  );
  log(`Ben asked Ada about "${ASKED}"`);

  await expectData(opts.apiUrl, 'POST', '/api/user/addToCart', 200, { bookId: ids.get(BOUGHT) }, tokens.cleo);
  await expectData(opts.apiUrl, 'POST', '/api/books/checkoutCart', 201, {}, tokens.cleo);
  log(`Cleo bought "${BOUGHT}": it waits for the hand-over in the dashboard's queue`);
  return { created: true, bookIds: DEMO_BOOKS.map((b) => ids.get(b.name) as string) };
}

/** The lines `npm run demo` prints once the market is filled. */
export function demoAccountsTable(): string[] {
  return [
    `  Demo accounts (password "${DEMO_PASSWORD}"):`,
    ...DEMO_STUDENTS.map((s) => `    ${demoAddress(s.key).padEnd(22)} ${s.firstName.padEnd(7)} ${s.role}`),
  ];
}
