/**
 * One thread, polled every 5 s while it is open with `If-None-Match`: an unchanged thread answers
 * 304 and the page keeps what it shows (docs/conversations.md). The list is `conversationsQuery` of
 * #web/queries.ts (the navigation's badge reads it too).
 */
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';

type Thread = Awaited<ReturnType<typeof readThread>>;

const readThread = (result: Awaited<ReturnType<typeof getThread>>) => call(Promise.resolve(result));
const getThread = (id: string, etag: string | undefined) =>
  api.GET('/api/user/getConversation/{conversationId}', {
    params: { path: { conversationId: id } },
    headers: etag ? { 'If-None-Match': etag } : {},
  });

/** The last answer of each thread and its ETag, for the next poll's If-None-Match. */
const lastSeen = new Map<string, { etag: string; thread: Thread }>();

async function fetchThread(id: string): Promise<{ thread: Thread; changed: boolean }> {
  const seen = lastSeen.get(id);
  const result = await getThread(id, seen?.etag);
  if (result.response.status === 304 && seen) return { thread: seen.thread, changed: false };
  const thread = await readThread(result);
  const etag = result.response.headers.get('ETag');
  if (etag) lastSeen.set(id, { etag, thread });
  return { thread, changed: true };
}

export const threadQuery = (id: string) =>
  queryOptions({
    queryKey: [...keys.conversations, 'thread', id],
    queryFn: async () => (await fetchThread(id)).thread,
    refetchInterval: 5000,
  });
