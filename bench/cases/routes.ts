/**
 * Every route that has no latency case (bench/cases/*.ts with a floor): one request builder each,
 * so the benchmark calls every route of serverless.yml at least once and reports its DynamoDB
 * calls and capacity (bench/harness/routes.ts). `event` does the untimed set-up of call `i` (a
 * fresh book, order, user or token where the call consumes one) and returns the request; the
 * harness fails the run when the answer is not `status`, and when a declared route has neither a
 * case nor an entry here.
 *
 * Project modules are imported dynamically: configuration is read at import, after the harness
 * set the environment (bench/harness/env.ts).
 */
import type { SeedUser } from '#bench/harness/fixture.ts';
import type { RouteCall, RouteContext } from '#bench/harness/routes.ts';
import type { BookRecord } from '#lib/db/records.ts';
import type { EventInput } from '#tests/helpers/lambda.ts';

const books = () => import('#tests/helpers/books.ts');

/** A POST or PUT of `body` to `route` with the bearer `token`. */
const write = (method: 'POST' | 'PUT', route: string, token: string, body?: unknown): EventInput => ({
  method,
  route,
  token,
  body,
});

/** A listed book of `owner` (posted the way postBook stores it, counters included). */
async function listedBook(owner: { id: string }): Promise<BookRecord> {
  return (await books()).makeBook(owner, { name: 'Calculus', course: 'MTH 161' });
}

/** A book of `seller` bought by `buyer` in an order (status 1, or 2 when verified). */
async function boughtBook(buyer: SeedUser, seller: SeedUser, status: 1 | 2 = 1) {
  const { seedOrder } = await import('#tests/helpers/orders.ts');
  const order = await seedOrder(buyer.id, [{ sellerId: seller.id, status }]);
  return { order, book: order.books[0] as BookRecord };
}

/** A pending sign-up's address and token (stored as signup stores it; no e-mail is read). */
async function pendingSignup(ctx: RouteContext, i: number) {
  const { createPendingSignup } = await import('#lib/accounts/signup.ts');
  const emailAddress = `pending-${ctx.runId}-${i}@bench.edu`;
  const token = await createPendingSignup({ ...signupBody(emailAddress), password: ctx.fixture.password });
  return { emailAddress, token };
}

const signupBody = (emailAddress: string) => ({
  emailAddress,
  password: 'correct horse battery staple',
  firstName: 'Bench',
  lastName: 'Student',
  university: 'Bench University',
  campusMailbox: 'Box 19',
  paymentUsername: 'bench-pay',
});

export const routeCalls: RouteCall[] = [
  // ----- accounts -----
  {
    route: 'POST /api/auth/signup',
    status: 202,
    event: async (ctx, i) => ({
      method: 'POST',
      route: '/api/auth/signup',
      body: signupBody(`signup-${ctx.runId}-${i}@bench.edu`),
    }),
  },
  {
    route: 'POST /api/auth/resendConfirmation',
    status: 202,
    event: async (ctx, i) => ({
      method: 'POST',
      route: '/api/auth/resendConfirmation',
      body: { emailAddress: (await pendingSignup(ctx, 1_000_000 + i)).emailAddress },
    }),
  },
  {
    route: 'GET /api/auth/confirm/{token}',
    status: 200,
    event: async (ctx, i) => ({
      route: '/api/auth/confirm/{token}',
      pathParameters: { token: (await pendingSignup(ctx, 2_000_000 + i)).token },
    }),
  },
  {
    route: 'POST /api/auth/confirm',
    status: 200,
    event: async (ctx, i) => ({
      method: 'POST',
      route: '/api/auth/confirm',
      body: { token: (await pendingSignup(ctx, 3_000_000 + i)).token, password: ctx.fixture.password },
    }),
  },
  {
    route: 'POST /api/auth/passwordResetRequest',
    status: 202,
    event: async (ctx) => ({
      method: 'POST',
      route: '/api/auth/passwordResetRequest',
      body: { emailAddress: (await ctx.newUser()).email },
    }),
  },
  {
    route: 'POST /api/auth/passwordReset',
    status: 200,
    event: async (ctx) => {
      const { createResetToken } = await import('#lib/accounts/password.ts');
      const user = await ctx.newUser();
      return {
        method: 'POST',
        route: '/api/auth/passwordReset',
        body: { token: await createResetToken(user.id), password: 'a new long passphrase 19' },
      };
    },
  },
  {
    route: 'POST /api/auth/updatePassword',
    status: 200,
    event: async (ctx) =>
      write('POST', '/api/auth/updatePassword', (await ctx.newUser()).token, {
        password: ctx.fixture.password,
        newPassword: 'a new long passphrase 19',
      }),
  },
  {
    route: 'POST /api/auth/updateProfile',
    status: 200,
    event: async (ctx, i) =>
      write('POST', '/api/auth/updateProfile', (ctx.fixture.users[1 + (i % 10)] as SeedUser).token, {
        campusMailbox: `Box ${i}`,
      }),
  },
  {
    route: 'POST /api/auth/deleteAccount',
    status: 200,
    // a whole account (its e-mail item too), as sign-up and confirmation store it
    event: async (ctx, i) => {
      const { confirmSignup } = await import('#lib/accounts/signup.ts');
      const { issueSession } = await import('#lib/accounts/login.ts');
      const { token } = await pendingSignup(ctx, 4_000_000 + i);
      const user = await confirmSignup(token, ctx.fixture.password);
      return write('POST', '/api/auth/deleteAccount', (await issueSession(user)).token, {
        password: ctx.fixture.password,
      });
    },
  },

  // ----- books -----
  {
    route: 'GET /api/books/getBook/{bookId}',
    status: 200,
    event: async (ctx, i) => ({
      route: '/api/books/getBook/{bookId}',
      pathParameters: { bookId: (ctx.fixture.books[i % ctx.fixture.books.length] as BookRecord).id },
      token: ctx.fixture.reader.token,
    }),
  },
  {
    route: 'GET /api/books/getUsersPosts',
    status: 200,
    event: async (ctx) => ({ route: '/api/books/getUsersPosts', token: ctx.fixture.reader.token }),
  },
  {
    route: 'POST /api/books/updateBook',
    status: 200,
    event: async (ctx, i) => {
      const owner = await ctx.newUser();
      const book = await listedBook(owner);
      return write('POST', '/api/books/updateBook', owner.token, { bookId: book.id, price: 20 + (i % 50) });
    },
  },
  {
    route: 'POST /api/books/deleteBook',
    status: 200,
    event: async (ctx) => {
      const owner = await ctx.newUser();
      const book = await listedBook(owner);
      return write('POST', '/api/books/deleteBook', owner.token, { bookId: book.id });
    },
  },
  {
    route: 'POST /api/books/reactivateBook',
    status: 200,
    event: async (ctx) => {
      const { deleteBook } = await import('#lib/books/listings.ts');
      const owner = await ctx.newUser();
      const book = await listedBook(owner);
      await deleteBook(owner.id, book.id, false);
      return write('POST', '/api/books/reactivateBook', owner.token, { bookId: book.id });
    },
  },
  {
    route: 'POST /api/books/reportBook',
    status: 200,
    event: async (ctx) => {
      const book = await listedBook(await ctx.newUser());
      return write('POST', '/api/books/reportBook', ctx.fixture.reader.token, {
        bookId: book.id,
        reason: 'wrong-info',
      });
    },
  },
  {
    route: 'POST /api/books/addPhoto',
    status: 201,
    event: async (ctx) => {
      const owner = await ctx.newUser();
      const book = await listedBook(owner);
      return write('POST', '/api/books/addPhoto', owner.token, {
        bookId: book.id,
        contentType: 'image/jpeg',
      });
    },
  },
  {
    route: 'POST /api/books/removePhoto',
    status: 200,
    event: async (ctx) => {
      const { addPhoto } = await import('#lib/photos/photos.ts');
      const owner = await ctx.newUser();
      const book = await listedBook(owner);
      const { photoId } = await addPhoto(owner.id, book.id, 'image/jpeg');
      return write('POST', '/api/books/removePhoto', owner.token, { bookId: book.id, photoId });
    },
  },

  // ----- requests, matches, notifications -----
  {
    route: 'POST /api/books/requestBook',
    status: 201,
    event: async (ctx) =>
      write('POST', '/api/books/requestBook', (await ctx.newUser()).token, {
        name: 'Organic Chemistry',
        course: 'CHM 203',
      }),
  },
  {
    route: 'GET /api/user/getRequests',
    status: 200,
    event: async (ctx) => ({ route: '/api/user/getRequests', token: ctx.fixture.reader.token }),
  },
  {
    route: 'POST /api/user/deleteRequest',
    status: 200,
    event: async (ctx) => {
      const { requestBook } = await import('#lib/matching/requests.ts');
      const user = await ctx.newUser();
      const { getUserListingInfo } = await import('#lib/db/users.ts');
      const campus = (await getUserListingInfo(user.id))?.campus ?? '';
      const request = await requestBook({ userId: user.id, campus }, { name: 'Physics', course: 'PHY 121' });
      return write('POST', '/api/user/deleteRequest', user.token, { requestId: request.id });
    },
  },
  {
    route: 'GET /api/user/getNotifications',
    status: 200,
    event: async (ctx) => ({ route: '/api/user/getNotifications', token: ctx.fixture.reader.token }),
  },
  {
    route: 'POST /api/user/markNotificationsRead',
    status: 200,
    event: async (ctx) => write('POST', '/api/user/markNotificationsRead', ctx.fixture.reader.token, {}),
  },

  // ----- cart and orders -----
  {
    route: 'GET /api/user/getCartItems',
    status: 200,
    event: async (ctx) => ({
      route: '/api/user/getCartItems',
      token: (ctx.fixture.users[1] as SeedUser).token,
    }),
  },
  {
    route: 'POST /api/user/removeFromCart',
    status: 200,
    event: async (ctx) => {
      const { addToCart } = await import('#lib/cart/cart.ts');
      const buyer = await ctx.newUser();
      const book = await listedBook(await ctx.newUser());
      await addToCart(buyer.id, book.id);
      return write('POST', '/api/user/removeFromCart', buyer.token, { bookId: book.id });
    },
  },
  {
    route: 'POST /api/user/clearCart',
    status: 200,
    event: async (ctx) => {
      const { addToCart } = await import('#lib/cart/cart.ts');
      const buyer = await ctx.newUser();
      const seller = await ctx.newUser();
      for (let k = 0; k < 3; k++) await addToCart(buyer.id, (await listedBook(seller)).id);
      return { method: 'POST', route: '/api/user/clearCart', token: buyer.token };
    },
  },
  {
    route: 'GET /api/user/getOrder/{orderId}',
    status: 200,
    event: async (ctx) => {
      const buyer = await ctx.newUser();
      const { order } = await boughtBook(buyer, await ctx.newUser());
      return {
        route: '/api/user/getOrder/{orderId}',
        pathParameters: { orderId: order.id },
        token: buyer.token,
      };
    },
  },
  ...['getOrders', 'getPurchasedBooks', 'getSoldBooks', 'getUserData', 'getUserStatistics'].map(
    (name): RouteCall => ({
      route: `GET /api/user/${name}`,
      status: 200,
      event: async (ctx) => ({ route: `/api/user/${name}`, token: ctx.fixture.reader.token }),
    }),
  ),
  {
    route: 'GET /api/user/exportData',
    status: 200,
    event: async (ctx) => ({ route: '/api/user/exportData', token: ctx.fixture.reader.token }),
  },

  // ----- e-mail preferences -----
  {
    route: 'GET /api/user/getEmailPreferences',
    status: 200,
    event: async (ctx) => ({ route: '/api/user/getEmailPreferences', token: ctx.fixture.reader.token }),
  },
  {
    route: 'POST /api/user/updateEmailPreferences',
    status: 200,
    event: async (ctx, i) =>
      write('POST', '/api/user/updateEmailPreferences', (ctx.fixture.users[2 + (i % 10)] as SeedUser).token, {
        matches: i % 2 === 0 ? 'daily' : 'each',
      }),
  },
  ...(['GET', 'POST'] as const).map(
    (method): RouteCall => ({
      route: `${method} /api/user/unsubscribe/{token}`,
      status: 200,
      event: async (ctx) => {
        const { unsubscribeToken } = await import('#lib/preferences/unsubscribe.ts');
        const user = await ctx.newUser();
        return {
          method,
          route: '/api/user/unsubscribe/{token}',
          pathParameters: { token: unsubscribeToken(user.id, 'matches') },
        };
      },
    }),
  ),

  // ----- dashboard -----
  ...['permissionLevel', 'getStatistics', 'getUsers', 'getOrders', 'getReports', 'getAuditLog'].map(
    (name): RouteCall => ({
      route: `GET /api/dashboard/${name}`,
      status: 200,
      event: async (ctx) => ({ route: `/api/dashboard/${name}`, token: ctx.admin.token }),
    }),
  ),
  {
    route: 'GET /api/dashboard/findUsers',
    status: 200,
    event: async (ctx) => ({
      route: '/api/dashboard/findUsers',
      token: ctx.admin.token,
      query: { query: ctx.fixture.reader.email.slice(0, 6) },
    }),
  },
  {
    route: 'GET /api/dashboard/getBooksWithStatus/{status}',
    status: 200,
    event: async (ctx) => ({
      route: '/api/dashboard/getBooksWithStatus/{status}',
      pathParameters: { status: '0' },
      token: ctx.admin.token,
    }),
  },
  {
    route: 'POST /api/dashboard/confirmBook',
    status: 200,
    event: async (ctx) => {
      const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser());
      return write('POST', '/api/dashboard/confirmBook', ctx.admin.token, { bookId: book.id });
    },
  },
  {
    route: 'POST /api/dashboard/setBookPaid',
    status: 200,
    event: async (ctx) => {
      const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser(), 2);
      return write('POST', '/api/dashboard/setBookPaid', ctx.admin.token, { bookId: book.id });
    },
  },
  {
    route: 'POST /api/dashboard/cancelPurchase',
    status: 200,
    event: async (ctx) => {
      const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser());
      return write('POST', '/api/dashboard/cancelPurchase', ctx.admin.token, {
        bookId: book.id,
        reason: 'The buyer never came.',
      });
    },
  },
  {
    route: 'POST /api/dashboard/resolveReport',
    status: 200,
    event: async (ctx) => {
      const { reportBook } = await import('#lib/moderation/reports.ts');
      const book = await listedBook(await ctx.newUser());
      await reportBook(ctx.fixture.reader.id, { bookId: book.id, reason: 'spam' });
      return write('POST', '/api/dashboard/resolveReport', ctx.admin.token, {
        bookId: book.id,
        action: 'dismiss',
      });
    },
  },
  {
    route: 'PUT /api/dashboard/suspendUser',
    status: 200,
    event: async (ctx) =>
      write('PUT', '/api/dashboard/suspendUser', ctx.admin.token, {
        userId: (await ctx.newUser()).id,
        reason: 'Benchmark suspension.',
      }),
  },
  {
    route: 'PUT /api/dashboard/reinstateUser',
    status: 200,
    event: async (ctx) => {
      const { suspendUser } = await import('#lib/moderation/suspension.ts');
      const user = await ctx.newUser();
      await suspendUser(
        { userId: ctx.admin.id, permissionType: 1 },
        { userId: user.id, reason: 'Benchmark suspension.' },
      );
      return write('PUT', '/api/dashboard/reinstateUser', ctx.admin.token, { userId: user.id });
    },
  },
  {
    route: 'PUT /api/dashboard/makeAdmin',
    status: 200,
    event: async (ctx) =>
      write('PUT', '/api/dashboard/makeAdmin', ctx.owner.token, { userId: (await ctx.newUser()).id }),
  },
  {
    route: 'PUT /api/dashboard/revokeAdmin',
    status: 200,
    event: async (ctx) =>
      write('PUT', '/api/dashboard/revokeAdmin', ctx.owner.token, {
        userId: (await ctx.newUser({ permissionType: 1 })).id,
      }),
  },
  {
    route: 'POST /api/dashboard/deactivateBooks',
    status: 200,
    event: async (ctx) =>
      write('POST', '/api/dashboard/deactivateBooks', ctx.owner.token, { olderThanDays: 365 }),
  },

  // ----- mail, docs, samples -----
  {
    route: 'GET /api/docs',
    status: 200,
    event: async () => ({ route: '/api/docs' }),
  },
  {
    route: 'GET /api/docs/assets/{file}',
    status: 200,
    event: async () => ({ route: '/api/docs/assets/{file}', pathParameters: { file: 'docs.js' } }),
  },
  {
    route: 'GET /api/openapi.json',
    status: 200,
    event: async () => ({ route: '/api/openapi.json' }),
  },
  ...['ping', 'test'].map(
    (name): RouteCall => ({
      route: `GET /api/${name}`,
      status: 200,
      // the sample service's Basic credentials and API key (lib/config.ts, stage local defaults)
      event: async () => {
        const { config } = await import('#lib/config.ts');
        const basic = Buffer.from(`${config.SAMPLE_BASIC_USER}:${config.SAMPLE_BASIC_PASSWORD}`).toString(
          'base64',
        );
        return {
          route: `/api/${name}`,
          headers: { authorization: `Basic ${basic}`, 'x-api-key': String(config.SAMPLE_API_KEY) },
        };
      },
    }),
  ),
];
