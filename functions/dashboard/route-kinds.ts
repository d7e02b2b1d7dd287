/**
 * The dashboard's three families of one-step routes, each declared once: a hand-over step an admin
 * takes on one bought book, a role move an owner makes on one user, and an audited moderation
 * action (suspend, reinstate, resolve reports). A family's routes differ
 * only in their summary and the domain function, so the rules they share (least role, input,
 * answer, documented errors) cannot drift apart. Not a handler: the handlers use these.
 */
import type { Principal } from '#lib/accounts/principal.ts';
import type { Book } from '#lib/books/schemas.ts';
import { AdminUser, BookIdBody, MovedBook, UserIdBody } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';
import type * as z from '#lib/zod.ts';

/** POST { bookId } -> the moved book (admin); 404 for an unknown book, 409 when not in the step's status. */
export const handoverStep = (summary: string, move: (actorId: string, bookId: string) => Promise<Book>) =>
  http({ role: 'admin', body: BookIdBody, response: MovedBook, errors: [404, 409], summary }, async (input) =>
    move(input.principal.userId, input.body.bookId),
  );

/** PUT { userId } -> the user with their new role (owner); 404 for an unknown user, 409 when not in the move's role. */
export const roleMove = (summary: string, move: (actorId: string, userId: string) => Promise<AdminUser>) =>
  http({ role: 'owner', body: UserIdBody, response: AdminUser, errors: [404, 409], summary }, async (input) =>
    move(input.principal.userId, input.body.userId),
  );

/** An audited moderation action (admin): its own body and answer; 404 no such target, 409 not in a state for it, 503 busy. */
export const moderationAction = <B extends z.ZodMiniType, R extends z.ZodMiniType>(
  spec: { body: B; response: R; summary: string },
  act: (admin: Principal, body: z.output<B>) => Promise<z.output<R>>,
) =>
  http(
    {
      role: 'admin',
      body: spec.body,
      response: spec.response,
      errors: [404, 409, 503],
      summary: spec.summary,
    },
    async (input) => act(input.principal, input.body as z.output<B>),
  );
