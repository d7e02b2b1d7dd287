/** The Sell form's reads: the ISBN lookup, once per ISBN (kept: a book's data does not change). */
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';

export const lookupQuery = (isbn: string) =>
  queryOptions({
    queryKey: ['isbn-lookup', isbn],
    queryFn: () => call(api.GET('/api/books/lookupIsbn/{isbn}', { params: { path: { isbn } } })),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
