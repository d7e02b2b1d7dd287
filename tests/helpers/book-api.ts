/** In-process calls of the listing handlers, with their route templates. */
import { handler as addPhoto } from '#functions/books/add-photo.ts';
import { handler as deleteBook } from '#functions/books/delete-book.ts';
import { handler as getAllBooks } from '#functions/books/get-all-books.ts';
import { handler as getBook } from '#functions/books/get-book.ts';
import { handler as getBooksNoToken } from '#functions/books/get-books-no-token.ts';
import { handler as getUsersPosts } from '#functions/books/get-users-posts.ts';
import { handler as postBook } from '#functions/books/post-book.ts';
import { handler as reactivateBook } from '#functions/books/reactivate-book.ts';
import { handler as removePhoto } from '#functions/books/remove-photo.ts';
import { handler as search } from '#functions/books/search.ts';
import { handler as searchPublic } from '#functions/books/search-public.ts';
import { handler as updateBook } from '#functions/books/update-book.ts';
import { invoke } from './lambda.ts';

const post =
  (handler: typeof postBook | typeof addPhoto, route: string) => (token: string | undefined, body: unknown) =>
    invoke(handler, { method: 'POST', route: `/api/books/${route}`, token, body });

export const booksApi = {
  postBook: post(postBook, 'postBook'),
  updateBook: post(updateBook, 'updateBook'),
  deleteBook: post(deleteBook, 'deleteBook'),
  reactivateBook: post(reactivateBook, 'reactivateBook'),
  addPhoto: post(addPhoto, 'addPhoto'),
  removePhoto: post(removePhoto, 'removePhoto'),
  getUsersPosts: (token?: string, query?: Record<string, string>) =>
    invoke(getUsersPosts, { route: '/api/books/getUsersPosts', token, query }),
  getBook: (bookId: string, token?: string) =>
    invoke(getBook, { route: '/api/books/getBook/{bookId}', pathParameters: { bookId }, token }),
  getAllBooks: (token?: string, query?: Record<string, string>) =>
    invoke(getAllBooks, { route: '/api/books/getAllBooks', token, query }),
  getBooksNoToken: (
    limit: string | number,
    skip: string | number,
    token?: string,
    query?: Record<string, string>,
  ) =>
    invoke(getBooksNoToken, {
      route: '/api/books/getBooksNoToken/{limit}/{skip}',
      pathParameters: { limit: String(limit), skip: String(skip) },
      token,
      query,
    }),
  searchPublic: (query: string, params?: Record<string, string>) =>
    invoke(searchPublic, {
      route: '/api/books/search/public/{query}',
      pathParameters: { query },
      query: params,
    }),
  search: (token: string | undefined, query: string, params?: Record<string, string>) =>
    invoke(search, { route: '/api/books/search/{query}', pathParameters: { query }, query: params, token }),
};
