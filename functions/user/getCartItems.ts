import { getCartItems } from '#lib/cart/cart.ts';
import { CartItems } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/user/getCartItems: the cart's books as they are now, each with `available`. */
export const handler = http(
  {
    auth: 'required',
    response: CartItems,
    summary: 'Books in the cart; ones no longer available have available: false',
  },
  async ({ principal }) => getCartItems(principal.userId),
);
