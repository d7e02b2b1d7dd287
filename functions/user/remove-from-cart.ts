import { removeFromCart } from '#lib/cart/cart.ts';
import { CartBookBody, RemoveFromCartResult } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/removeFromCart: takes a book out of the caller's cart (harmless if absent). */
export const handler = http(
  {
    body: CartBookBody,
    response: RemoveFromCartResult,
    summary: 'Remove a book from the cart',
  },
  async ({ body, principal }) => removeFromCart(principal.userId, body.bookId),
);
