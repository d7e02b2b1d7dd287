import { z } from 'zod';
import { handler as deleteRequestHandler } from '#functions/matching/delete-request.ts';
import { handler as getNotificationsHandler } from '#functions/matching/get-notifications.ts';
import { handler as getRequestsHandler } from '#functions/matching/get-requests.ts';
import { handler as getUserMatchesHandler } from '#functions/matching/get-user-matches.ts';
import { handler as markReadHandler } from '#functions/matching/mark-notifications-read.ts';
import { handler as requestBookHandler } from '#functions/matching/request-book.ts';
import { userPartition } from '#lib/db/keys.ts';
import { BookRequest } from '#lib/matching/requests.ts';
import { MatchedBook } from '#lib/matching/user-matches.ts';
import { Notification } from '#lib/notifications/service.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { makeUser } from '#tests/helpers/users.ts';
import { invoke } from './lambda.ts';
import { expectEnvelope } from './schema.ts';

let counter = 0;
/** A unique request body (a title no other test uses, a unique course). */
export function requestBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return { name: `Uniquetitle${tag} Handbook`, course: `REQ ${tag}`, ...overrides };
}

export const requestBook = (token: string, body: unknown) =>
  invoke(requestBookHandler, { method: 'POST', route: '/api/books/requestBook', token, body });

export async function createRequest(token: string, body: Record<string, unknown> = requestBody()) {
  const res = await requestBook(token, body);
  if (res.status !== 201) throw new Error(`requestBook answered ${res.status}: ${res.body}`);
  return expectEnvelope(res.json(), BookRequest);
}

/** A buyer with one open request (a unique body) and a seller to list the books it may match. */
export async function requesterAndSeller() {
  const buyer = await makeUser();
  const seller = await makeUser();
  const body = requestBody();
  const request = await createRequest(buyer.token, body);
  return { buyer, seller, body, request };
}

export const getRequests = (token: string) =>
  invoke(getRequestsHandler, { route: '/api/user/getRequests', token });

export const deleteRequest = (token: string, requestId: string) =>
  invoke(deleteRequestHandler, {
    method: 'POST',
    route: '/api/user/deleteRequest',
    token,
    body: { requestId },
  });

export async function userMatches(token: string) {
  const res = await invoke(getUserMatchesHandler, { route: '/api/books/getUserMatches', token });
  if (res.status !== 200) throw new Error(`getUserMatches answered ${res.status}: ${res.body}`);
  return expectEnvelope(res.json(), z.array(MatchedBook));
}

export const getNotifications = (token: string, query?: Record<string, string>) =>
  invoke(getNotificationsHandler, { route: '/api/user/getNotifications', token, query });

export async function notifications(token: string, query?: Record<string, string>) {
  const res = await getNotifications(token, query);
  if (res.status !== 200) throw new Error(`getNotifications answered ${res.status}: ${res.body}`);
  return {
    items: expectEnvelope(res.json(), z.array(Notification)),
    next: res.json<{ next: string | null }>().next,
  };
}

export const markRead = (token: string, body: unknown) =>
  invoke(markReadHandler, { method: 'POST', route: '/api/user/markNotificationsRead', token, body });

/** The stored items of a user whose sort key starts with `prefix` (MATCH#, NOTIF#, REQUEST#). */
export async function storedItems(userId: string, prefix: string): Promise<Record<string, unknown>[]> {
  return queryPartition(userPartition(userId), { beginsWith: prefix, consistent: true });
}
