import { http } from '#lib/http/index.ts';
import { AccountDeleted, DeleteAccountBody, deleteAccount } from '#lib/privacy/deletion.ts';

/** POST /api/auth/deleteAccount: needs the password; every token stops, the address is free again. */
export const handler = http(
  {
    body: DeleteAccountBody,
    response: AccountDeleted,
    errors: [403, 409, 429],
    summary: 'Delete the caller’s account (password required)',
  },
  async ({ body, principal }) => deleteAccount(principal, body.password),
);
