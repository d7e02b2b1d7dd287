import { clearCart } from '#lib/cart/cart.ts';
import { ClearCartResult } from '#lib/cart/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/clearCart: empties the caller's cart. */
export const handler = http({ response: ClearCartResult, summary: 'Empty the cart' }, async ({ principal }) =>
  clearCart(principal.userId),
);
