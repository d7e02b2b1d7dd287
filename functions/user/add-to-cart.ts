import { addToCart } from '#lib/cart/cart.ts';
import { AddToCartResult, CartBookBody } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/addToCart: puts a listed book of someone else in the caller's cart (no reservation). */
export const handler = http(
  {
    body: CartBookBody,
    response: AddToCartResult,
    errors: [404, 409],
    summary: 'Add a book to the cart; 409 for one’s own or an unavailable book or a full cart',
  },
  async ({ body, principal }) => addToCart(principal.userId, body.bookId),
);
