/**
 * Server state through TanStack Query: one QueryClient for the tab, one key per resource, and the
 * query of each resource the pages read. A page shows what the cache holds at once and refreshes
 * it in the background when it mounts; a mutation invalidates the keys of what it changed
 * (`useAction(...keys)` in ui/hooks.ts), so every page and the navigation showing that resource
 * refresh without a hand-written reload. The cache is emptied when the signed-in user changes.
 */
import {
  infiniteQueryOptions,
  notifyManager,
  QueryClient,
  type QueryKey,
  queryOptions,
} from '@tanstack/react-query';
import { type ApiFailure, api, call } from '#web/api.ts';
import { onUserChange } from '#web/session.ts';

declare module '@tanstack/react-query' {
  interface Register {
    // Every query and mutation function fails with an ApiFailure (call() turns any failure into one).
    defaultError: ApiFailure;
  }
}

// A query's new state (busy, data) reaches the components within the task that caused it, as a
// setState in a click handler does, not one timer later: a pressed "More books" is busy at once.
notifyManager.setScheduler(queueMicrotask);

export const queryClient = new QueryClient({
  defaultOptions: {
    // A failed read is shown at once, as before; a tab's focus does not refetch behind the user.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Another user's (or no user's) cart, notifications and listings must never show from the cache.
onUserChange(() => queryClient.clear());

/**
 * The key of each resource. A key is a prefix of the keys under it: invalidating `keys.books`
 * refreshes every listing, search and book page; `keys.dashboard` every dashboard tab.
 */
export const keys = {
  /** every book list and book page (listing and search pages, one book) */
  books: ['books'],
  bookLists: ['books', 'list'],
  book: (id: string) => ['books', 'one', id],
  /** the caller's own account: role, profile, statistics, e-mail preferences */
  me: ['me'],
  level: ['me', 'level'],
  profile: ['me', 'profile'],
  statistics: ['me', 'statistics'],
  preferences: ['me', 'preferences'],
  cart: ['cart'],
  listings: ['listings'],
  requests: ['requests'],
  matches: ['matches'],
  notifications: ['notifications'],
  /** the caller's conversations and each thread */
  conversations: ['conversations'],
  /** the caller's orders, one order, the books bought and sold */
  orders: ['orders'],
  dashboard: ['dashboard'],
} as const;

/** The query of one resource: its key and the call that reads it. */
export const read = <T>(queryKey: QueryKey, queryFn: () => Promise<T>) => queryOptions({ queryKey, queryFn });

/** One page of a paged route, as openapi-fetch answers it: its data and the cursor of the next page. */
type PageAnswer<T> = Promise<{
  data?: { data: T; next?: string | null };
  error?: unknown;
  response: Response;
}>;

/** A page's `data` (failures as `call` throws them) and the cursor of the next page, null on the last. */
export async function pageOf<T>(pending: PageAnswer<T>): Promise<{ data: T; next: string | null }> {
  const data = await call(pending);
  return { data, next: (await pending).data?.next ?? null };
}

/**
 * A paged list read a page at a time: the first page when it opens, the next one when asked
 * (`fetchNextPage`, the list's "More" button), so no row of a long list is out of reach. Its
 * `data` is the rows of every page read so far; invalidating the key refreshes them all.
 * `page(cursor)` reads one page.
 */
export const readPages = <T>(queryKey: QueryKey, page: (cursor: string | undefined) => PageAnswer<T[]>) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => pageOf(page(pageParam ?? undefined)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    select: (read) => read.pages.flatMap((p) => p.data),
  });

/**
 * The notifications being marked read: until the service has answered, every read of the list shows
 * them read, so a refetch meanwhile (the nav's, on every navigation) cannot bring a badge back up.
 */
export const markingRead = new Set<string>();

/** The notifications the navigation counts and the notifications page lists: the newest 50. */
export const notificationsQuery = read(keys.notifications, async () =>
  (await call(api.GET('/api/user/getNotifications', { params: { query: { limit: '50' } } }))).map((n) =>
    markingRead.has(n.id) ? { ...n, read: true } : n,
  ),
);

/** The caller's conversations, newest activity first: the Messages page and the navigation's badge. */
export const conversationsQuery = read([...keys.conversations, 'list'], () =>
  call(api.GET('/api/user/getConversations', { params: { query: { limit: '50' } } })),
);

/** The caller's role: 0 student, 1 admin, 2 owner. */
export const levelQuery = read(
  keys.level,
  async () => (await call(api.GET('/api/dashboard/permissionLevel'))).permissionType,
);

/** The caller's profile (its campus names the browse page's default). */
export const profileQuery = read(keys.profile, () => call(api.GET('/api/user/getUserData')));

export const statisticsQuery = read(keys.statistics, () => call(api.GET('/api/user/getUserStatistics')));

export const matchesQuery = read(keys.matches, () => call(api.GET('/api/books/getUserMatches')));

export const requestsQuery = read(keys.requests, () => call(api.GET('/api/user/getRequests')));

export const cartQuery = read(keys.cart, () => call(api.GET('/api/user/getCartItems')));

export const listingsQuery = read(keys.listings, () => call(api.GET('/api/books/getUsersPosts')));

export const bookQuery = (id: string) =>
  read(keys.book(id), () =>
    call(api.GET('/api/books/getBook/{bookId}', { params: { path: { bookId: id } } })),
  );

export const ordersQuery = read([...keys.orders, 'mine'], () => call(api.GET('/api/user/getOrders')));

export const orderQuery = (id: string) =>
  read([...keys.orders, 'one', id], () =>
    call(api.GET('/api/user/getOrder/{orderId}', { params: { path: { orderId: id } } })),
  );

export const boughtQuery = read([...keys.orders, 'bought'], () =>
  call(api.GET('/api/user/getPurchasedBooks')),
);

export const soldQuery = read([...keys.orders, 'sold'], () => call(api.GET('/api/user/getSoldBooks')));

export const preferencesQuery = read(keys.preferences, () => call(api.GET('/api/user/getEmailPreferences')));

/**
 * The caller's saved books, newest saved first, read once and kept (the hearts of every card read
 * it); saving or unsaving refreshes it: at most 2 requests for the 200 books a user can save.
 */
export const savedKey = ['saved'] as const;

const savedPage = (cursor: string | null) =>
  pageOf(
    api.GET('/api/user/getSavedBooks', {
      params: { query: { limit: '100', ...(cursor ? { cursor } : {}) } },
    }),
  );

export type SavedBook = Awaited<ReturnType<typeof savedPage>>['data'][number];

/** Every saved book, newest saved first. */
export const savedQuery = {
  ...read(savedKey, async () => {
    const all: SavedBook[] = [];
    let cursor: string | null = null;
    do {
      const page = await savedPage(cursor);
      all.push(...page.data);
      cursor = page.next;
    } while (cursor);
    return all;
  }),
  // read once per session (the cache is emptied when the user changes); saving and unsaving refresh it
  staleTime: Number.POSITIVE_INFINITY,
};

/** An ISBN's book data and price hint (`lookupIsbn`), once per ISBN: kept, a book's data does not change. */
export const lookupQuery = (isbn: string) =>
  queryOptions({
    queryKey: ['isbn-lookup', isbn],
    queryFn: () => call(api.GET('/api/books/lookupIsbn/{isbn}', { params: { path: { isbn } } })),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
