import { getCartItems } from '#lib/cart/cart.ts';
import { CartContents } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/user/getCartItems: the cart's books as they are now, each with `available`, and the money. */
export const handler = http(
  {
    response: CartContents,
    summary:
      'Books in the cart (unavailable ones with available: false) and the subtotal, fee and total of the available ones',
  },
  async ({ principal }) => getCartItems(principal.userId),
);
