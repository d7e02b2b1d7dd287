/**
 * Books seen in listings, kept for the detail page: the API has no single-book route yet
 * (getBook is a planned addition), so the detail page shows what the listing returned.
 */
import type { paths } from '#web/api.gen.ts';

export type Book =
  paths['/api/books/getAllBooks']['get']['responses'][200]['content']['application/json']['data'][number];

const seen = new Map<string, Book>();

export function remember(books: Book[]): void {
  for (const b of books) seen.set(b.id, b);
}

export function recall(id: string): Book | undefined {
  return seen.get(id);
}
