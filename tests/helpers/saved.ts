/** In-process calls of the saved-books handlers. */
import { handler as getSavedBooksHandler } from '#functions/user/get-saved-books.ts';
import { handler as saveBookHandler } from '#functions/user/save-book.ts';
import { handler as unsaveBookHandler } from '#functions/user/unsave-book.ts';
import { invoke } from './lambda.ts';

export const saveBook = (token: string, bookId: string) =>
  invoke(saveBookHandler, { method: 'POST', route: '/api/user/saveBook', token, body: { bookId } });

export const unsaveBook = (token: string, bookId: string) =>
  invoke(unsaveBookHandler, { method: 'POST', route: '/api/user/unsaveBook', token, body: { bookId } });

export const getSavedBooks = (token: string, query?: Record<string, string>) =>
  invoke(getSavedBooksHandler, { route: '/api/user/getSavedBooks', token, query });
