/**
 * The books the Open Library stand-in knows (scripts/local/isbn-standin.ts): real textbooks with
 * their real ISBN-13s, publishers and years, answered in the shape of Open Library's Books API
 * (`/api/books?bibkeys=ISBN:<isbn>&jscmd=data&format=json`: an object keyed by the bibkey as asked,
 * each entry with `url`, `key`, `title`, `subtitle`, `authors[{ url, name }]`, `publishers[{ name }]`,
 * `publish_date`, `identifiers`, `cover{ small, medium, large }`, and for some an `edition_name`).
 * Written by hand (there is no internet here): the edition keys and cover ids of the real catalogue
 * are not known offline, so `key`/`url` use Open Library's `/isbn/<isbn>` form and covers its
 * `/b/isbn/<isbn>-S|M|L.jpg` form, both of which the real service answers too.
 *
 * Special cases the tests rely on:
 *  - NO_COVER: known, without a cover;
 *  - TEXT_EDITION: the edition only as text, "2nd ed.";
 *  - UNKNOWN: a valid ISBN-13 the source does not know (answered `{}`);
 *  - SLOW: known, but answered after SLOW_DELAY_MS (more than the service waits).
 */

export interface FixtureBook {
  isbn13: string;
  isbn10?: string;
  title: string;
  subtitle?: string;
  authors: string[];
  publisher: string;
  publishDate: string;
  /** Open Library's `edition_name`, as text ("3rd ed.") */
  editionName?: string;
  /** false: the entry has no `cover` */
  cover?: boolean;
}

export const FIXTURE_ISBNS = {
  /** Pindyck and Rubinfeld, Microeconomics: no cover */
  NO_COVER: '9780132857123',
  /** Abelson and Sussman, SICP: edition "2nd ed." */
  TEXT_EDITION: '9780262510875',
  /** valid check digit, known to nobody */
  UNKNOWN: '9780000000002',
  /** Sipser, Introduction to the Theory of Computation: answered slowly */
  SLOW: '9781133187790',
} as const;

/** How long the stand-in waits before answering for SLOW (the service gives up after about 1.5 s). */
export const SLOW_DELAY_MS = 5000;

export const FIXTURE_BOOKS: readonly FixtureBook[] = [
  {
    isbn13: '9780262033848',
    isbn10: '0262033844',
    title: 'Introduction to Algorithms',
    authors: ['Thomas H. Cormen', 'Charles E. Leiserson', 'Ronald L. Rivest', 'Clifford Stein'],
    publisher: 'MIT Press',
    publishDate: '2009',
    editionName: '3rd ed.',
  },
  {
    isbn13: '9780262510875',
    isbn10: '0262510871',
    title: 'Structure and Interpretation of Computer Programs',
    authors: ['Harold Abelson', 'Gerald Jay Sussman', 'Julie Sussman'],
    publisher: 'MIT Press',
    publishDate: '1996',
    editionName: '2nd ed.',
  },
  {
    isbn13: '9781285741550',
    title: 'Calculus',
    subtitle: 'Early Transcendentals',
    authors: ['James Stewart'],
    publisher: 'Cengage Learning',
    publishDate: '2015',
    editionName: 'Eighth edition',
  },
  {
    isbn13: '9780134093413',
    title: 'Campbell Biology',
    authors: ['Lisa A. Urry', 'Michael L. Cain', 'Steven A. Wasserman', 'Peter V. Minorsky', 'Jane B. Reece'],
    publisher: 'Pearson',
    publishDate: '2016',
    editionName: '11th edition',
  },
  {
    isbn13: '9780199270293',
    title: 'Organic Chemistry',
    authors: ['Jonathan Clayden', 'Nick Greeves', 'Stuart Warren'],
    publisher: 'Oxford University Press',
    publishDate: '2012',
    editionName: 'Second edition',
  },
  {
    isbn13: '9781285165875',
    title: 'Principles of Economics',
    authors: ['N. Gregory Mankiw'],
    publisher: 'Cengage Learning',
    publishDate: '2014',
    editionName: '7th ed.',
  },
  {
    isbn13: '9781133947271',
    title: 'Physics for Scientists and Engineers',
    authors: ['Raymond A. Serway', 'John W. Jewett'],
    publisher: 'Brooks/Cole',
    publishDate: '2014',
    editionName: '9th ed.',
  },
  {
    isbn13: '9780321982384',
    title: 'Linear Algebra and Its Applications',
    authors: ['David C. Lay', 'Steven R. Lay', 'Judi J. McDonald'],
    publisher: 'Pearson',
    publishDate: '2015',
    editionName: 'Fifth edition',
  },
  {
    isbn13: '9780136042594',
    isbn10: '0136042597',
    title: 'Artificial Intelligence',
    subtitle: 'A Modern Approach',
    authors: ['Stuart J. Russell', 'Peter Norvig'],
    publisher: 'Prentice Hall',
    publishDate: '2009',
    editionName: '3rd ed.',
  },
  {
    isbn13: '9781118063330',
    title: 'Operating System Concepts',
    authors: ['Abraham Silberschatz', 'Peter B. Galvin', 'Greg Gagne'],
    publisher: 'Wiley',
    publishDate: '2012',
    editionName: '9th ed.',
  },
  {
    isbn13: '9780133594140',
    title: 'Computer Networking',
    subtitle: 'A Top-Down Approach',
    authors: ['James F. Kurose', 'Keith W. Ross'],
    publisher: 'Pearson',
    publishDate: '2016',
    editionName: 'Seventh edition',
  },
  {
    isbn13: '9780131103627',
    isbn10: '0131103628',
    title: 'The C Programming Language',
    authors: ['Brian W. Kernighan', 'Dennis M. Ritchie'],
    publisher: 'Prentice Hall',
    publishDate: '1988',
    editionName: '2nd ed.',
  },
  {
    isbn13: '9781118230718',
    title: 'Fundamentals of Physics',
    authors: ['David Halliday', 'Robert Resnick', 'Jearl Walker'],
    publisher: 'Wiley',
    publishDate: '2013',
    editionName: '10th edition',
  },
  {
    isbn13: '9780815344322',
    title: 'Molecular Biology of the Cell',
    authors: ['Bruce Alberts', 'Alexander Johnson', 'Julian Lewis', 'David Morgan', 'Martin Raff'],
    publisher: 'Garland Science',
    publishDate: '2014',
    editionName: 'Sixth edition',
  },
  {
    isbn13: '9780134414232',
    title: 'Chemistry',
    subtitle: 'The Central Science',
    authors: ['Theodore L. Brown', 'H. Eugene LeMay', 'Bruce E. Bursten', 'Catherine J. Murphy'],
    publisher: 'Pearson',
    publishDate: '2017',
    editionName: '14th edition',
  },
  {
    isbn13: '9780073383095',
    title: 'Discrete Mathematics and Its Applications',
    authors: ['Kenneth H. Rosen'],
    publisher: 'McGraw-Hill',
    publishDate: '2011',
    editionName: '7th ed.',
  },
  {
    isbn13: '9780132857123',
    title: 'Microeconomics',
    authors: ['Robert S. Pindyck', 'Daniel L. Rubinfeld'],
    publisher: 'Pearson',
    publishDate: '2012',
    editionName: '8th ed.',
    cover: false,
  },
  {
    isbn13: '9780073523323',
    title: 'Database System Concepts',
    authors: ['Abraham Silberschatz', 'Henry F. Korth', 'S. Sudarshan'],
    publisher: 'McGraw-Hill',
    publishDate: '2010',
    editionName: '6th ed.',
  },
  {
    isbn13: '9780134092669',
    title: "Computer Systems: A Programmer's Perspective",
    authors: ['Randal E. Bryant', "David R. O'Hallaron"],
    publisher: 'Pearson',
    publishDate: '2015',
    editionName: 'Third edition',
  },
  {
    isbn13: '9781429229364',
    title: 'Biochemistry',
    authors: ['Jeremy M. Berg', 'John L. Tymoczko', 'Lubert Stryer'],
    publisher: 'W. H. Freeman',
    publishDate: '2012',
    editionName: '7th ed.',
  },
  {
    isbn13: '9780321856562',
    title: 'Introduction to Electrodynamics',
    authors: ['David J. Griffiths'],
    publisher: 'Pearson',
    publishDate: '2012',
    editionName: 'Fourth edition',
  },
  {
    isbn13: '9781133187790',
    title: 'Introduction to the Theory of Computation',
    authors: ['Michael Sipser'],
    publisher: 'Cengage Learning',
    publishDate: '2012',
    editionName: 'Third edition',
  },
  {
    isbn13: '9781429218122',
    title: 'Physical Chemistry',
    // no edition_name: many Open Library records have none; the seller types it
    authors: ['Peter Atkins', 'Julio de Paula'],
    publisher: 'W. H. Freeman',
    publishDate: 'March 1, 2010',
  },
];

const slug = (title: string) =>
  title
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 60);

/** One book as Open Library's Books API writes it with `jscmd=data`. */
export function openLibraryEntry(b: FixtureBook): Record<string, unknown> {
  const base = 'https://openlibrary.org';
  const cover = (size: 'S' | 'M' | 'L') => `https://covers.openlibrary.org/b/isbn/${b.isbn13}-${size}.jpg`;
  return {
    url: `${base}/isbn/${b.isbn13}/${slug(b.title)}`,
    key: `/isbn/${b.isbn13}`,
    title: b.title,
    ...(b.subtitle ? { subtitle: b.subtitle } : {}),
    authors: b.authors.map((name) => ({ url: `${base}/search/authors?q=${encodeURIComponent(name)}`, name })),
    identifiers: { isbn_13: [b.isbn13], ...(b.isbn10 ? { isbn_10: [b.isbn10] } : {}) },
    publishers: [{ name: b.publisher }],
    publish_date: b.publishDate,
    ...(b.editionName ? { edition_name: b.editionName } : {}),
    ...(b.cover === false ? {} : { cover: { small: cover('S'), medium: cover('M'), large: cover('L') } }),
  };
}
