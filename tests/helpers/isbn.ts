/**
 * What the lookup makes of the stand-in's answer for FIXTURE_ISBNS.TEXT_EDITION
 * (scripts/local/isbn-fixtures.ts): the edition read from "2nd ed.", the large cover.
 */
export const TEXT_EDITION_BOOK = {
  title: 'Structure and Interpretation of Computer Programs',
  authors: ['Harold Abelson', 'Gerald Jay Sussman', 'Julie Sussman'],
  edition: 2,
  publisher: 'MIT Press',
  year: 1996,
  coverUrl: 'https://covers.openlibrary.org/b/isbn/9780262510875-L.jpg',
};
