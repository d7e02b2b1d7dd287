/**
 * Every route that has no latency case (bench/cases/*.ts with a floor): one request builder each,
 * so the benchmark calls every route of serverless.yml at least once and reports its DynamoDB
 * calls and capacity (bench/harness/routes.ts). Its builder does the untimed set-up of call `i` (a
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

/**
 * The route call of `route` (`METHOD /path`, as serverless.yml declares it) that must answer
 * `status`: `request` does the untimed set-up of call `i` and gives the rest of its request.
 */
const call = (
  route: string,
  status: number,
  request: (ctx: RouteContext, i: number) => Promise<Omit<EventInput, 'method' | 'route'>>,
): RouteCall => {
  const [method, path] = route.split(' ') as [string, string];
  return { route, status, event: async (ctx, i) => ({ method, route: path, ...(await request(ctx, i)) }) };
};

/** A request of the reader (the caller of the authenticated reads, with their data). */
const asReader = async (ctx: RouteContext) => ({ token: ctx.fixture.reader.token });

/** A request of the dashboard's admin (permissionType 1). */
const asAdmin = async (ctx: RouteContext) => ({ token: ctx.admin.token });

/** A listed book of `owner` (posted the way postBook stores it, counters included). */
async function listedBook(owner: { id: string }): Promise<BookRecord> {
  return (await books()).makeBook(owner, { name: 'Calculus', course: 'MTH 161' });
}

/** A new user and a listed book of theirs. */
async function ownBook(ctx: RouteContext) {
  const owner = await ctx.newUser();
  return { owner, book: await listedBook(owner) };
}

/** A book of `seller` bought by `buyer` in an order (status 1, or 2 when verified). */
async function boughtBook(buyer: SeedUser, seller: SeedUser, status: 1 | 2 = 1) {
  const { seedOrder } = await import('#tests/helpers/orders.ts');
  const order = await seedOrder(buyer.id, [{ sellerId: seller.id, status }]);
  return { order, book: order.books[0] as BookRecord };
}

/** A new user who asked the seller of a new listed book: their conversation. */
async function conversation(ctx: RouteContext) {
  const { askSeller } = await import('#lib/conversations/service.ts');
  const { owner, book } = await ownBook(ctx);
  const asker = await ctx.newUser();
  const { conversationId, message } = await askSeller(asker.id, { bookId: book.id, text: 'Hello' });
  return { owner, asker, conversationId, messageId: message.id };
}

/** A pending sign-up's address and token (stored as signup stores it; no e-mail is read). */
async function pendingSignup(ctx: RouteContext, i: number) {
  const { createPendingSignup } = await import('#lib/accounts/signup.ts');
  const emailAddress = `pending-${ctx.runId}-${i}@bench.edu`;
  const token = await createPendingSignup({ ...signupBody(emailAddress), password: ctx.fixture.password });
  return { emailAddress, token };
}

/** The campus of a stored user (from its address when stored without one). */
async function campusOf(user: { id: string }): Promise<string> {
  const { getUserListingInfo } = await import('#lib/db/users.ts');
  return (await getUserListingInfo(user.id))?.campus ?? '';
}

/** The caller `user` as lib/http/auth.ts builds it (tokens of new users are version 0). */
const principalOf = async (user: SeedUser, permissionType = 0) => ({
  userId: user.id,
  permissionType,
  tokenVersion: 0,
  campus: await campusOf(user),
});

/** The 6-digit TOTP code of a base32 secret at `at` (ms), as an authenticator app shows it. */
async function totpCode(secret: string, at: number): Promise<string> {
  const { Secret, TOTP } = await import('otpauth');
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });
}

/** A new admin with a pending TOTP secret (enrolled as enrollTotp does): the admin and the secret. */
async function enrolledAdmin(ctx: RouteContext) {
  const { enrollTotp } = await import('#lib/accounts/totp.ts');
  const admin = await ctx.newUser({ permissionType: 1 });
  const { secret } = await enrollTotp(await principalOf(admin, 1));
  return { admin, secret };
}

/** A new user who saved a listed book of another new user. */
async function savedBook(ctx: RouteContext) {
  const { saveBook } = await import('#lib/saved/saved.ts');
  const book = await listedBook(await ctx.newUser());
  const user = await ctx.newUser();
  await saveBook(user.id, book.id);
  return { user, book };
}

const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, opens: '00:00', closes: '23:59' }));

/** A new hand-over point at `campus`, open all week (UTC), put as putHandoverPoint does. */
async function handoverPoint(ctx: RouteContext, campus: string) {
  const { saveHandoverPoint } = await import('#lib/handover/service.ts');
  return saveHandoverPoint(ctx.admin.id, {
    campus,
    name: 'Bench library',
    location: 'Front desk',
    timeZone: 'UTC',
    hours: ALL_WEEK,
  });
}

/** Tomorrow at noon UTC: in the future, within MAX_DAYS_AHEAD and within ALL_WEEK's hours. */
const tomorrowNoon = () => {
  const at = new Date(Date.now() + 24 * 3600 * 1000);
  at.setUTCHours(12, 0, 0, 0);
  return at;
};

/**
 * A new buyer's order of a new seller's book (bought, waiting for its hand-over) and a point of
 * their campus: the body of a proposal of tomorrow noon.
 */
async function handoverToPropose(ctx: RouteContext) {
  const buyer = await ctx.newUser();
  const seller = await ctx.newUser();
  const { order } = await boughtBook(buyer, seller);
  const point = await handoverPoint(ctx, await campusOf(buyer));
  const body = {
    orderId: order.id,
    sellerId: seller.id,
    pointId: point.id,
    at: tomorrowNoon().toISOString(),
  };
  return { buyer, seller, body };
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
  call('POST /api/auth/signup', 202, async (ctx, i) => ({
    body: signupBody(`signup-${ctx.runId}-${i}@bench.edu`),
  })),
  call('POST /api/auth/resendConfirmation', 202, async (ctx, i) => ({
    body: { emailAddress: (await pendingSignup(ctx, 1_000_000 + i)).emailAddress },
  })),
  call('GET /api/auth/confirm/{token}', 200, async (ctx, i) => ({
    pathParameters: { token: (await pendingSignup(ctx, 2_000_000 + i)).token },
  })),
  call('POST /api/auth/confirm', 200, async (ctx, i) => ({
    body: { token: (await pendingSignup(ctx, 3_000_000 + i)).token, password: ctx.fixture.password },
  })),
  call('POST /api/auth/passwordResetRequest', 202, async (ctx) => ({
    body: { emailAddress: (await ctx.newUser()).email },
  })),
  call('POST /api/auth/passwordReset', 200, async (ctx) => {
    const { createResetToken } = await import('#lib/accounts/password.ts');
    const user = await ctx.newUser();
    return { body: { token: await createResetToken(user.id), password: 'a new long passphrase 19' } };
  }),
  call('POST /api/auth/updatePassword', 200, async (ctx) => ({
    token: (await ctx.newUser()).token,
    body: { password: ctx.fixture.password, newPassword: 'a new long passphrase 19' },
  })),
  call('POST /api/auth/updateProfile', 200, async (ctx, i) => ({
    token: (ctx.fixture.users[1 + (i % 10)] as SeedUser).token,
    body: { campusMailbox: `Box ${i}` },
  })),
  // a login's refresh family, rotated (the cookie routes need X-CSRF)
  call('POST /api/auth/refresh', 200, async (ctx) => ({
    headers: { 'x-csrf': '1' },
    cookies: [`cb_refresh=${await refreshTokenOf(await ctx.newUser())}`],
  })),
  call('POST /api/auth/logout', 200, async (ctx) => ({
    headers: { 'x-csrf': '1' },
    cookies: [`cb_refresh=${await refreshTokenOf(await ctx.newUser())}`],
  })),
  call('POST /api/auth/logoutEverywhere', 200, async (ctx) => ({ token: (await ctx.newUser()).token })),
  // a whole account (its e-mail item too), as sign-up and confirmation store it
  call('POST /api/auth/deleteAccount', 200, async (ctx, i) => {
    const { confirmSignup } = await import('#lib/accounts/signup.ts');
    const { issueSession } = await import('#lib/accounts/login.ts');
    const { token } = await pendingSignup(ctx, 4_000_000 + i);
    const user = await confirmSignup(token, ctx.fixture.password);
    return { token: (await issueSession(user)).token, body: { password: ctx.fixture.password } };
  }),

  // two-factor sign-in (lib/accounts/totp.ts): admins only; confirm with a code of the pending
  // secret; disable after a confirmation a minute ago (a code of a step not used yet)
  call('POST /api/auth/enrollTotp', 200, async (ctx) => ({
    token: (await ctx.newUser({ permissionType: 1 })).token,
  })),
  call('POST /api/auth/confirmTotp', 200, async (ctx) => {
    const { admin, secret } = await enrolledAdmin(ctx);
    return { token: admin.token, body: { code: await totpCode(secret, Date.now()) } };
  }),
  call('POST /api/auth/disableTotp', 200, async (ctx) => {
    const { confirmTotp } = await import('#lib/accounts/totp.ts');
    const { admin, secret } = await enrolledAdmin(ctx);
    const before = new Date(Date.now() - 60_000);
    await confirmTotp(await principalOf(admin, 1), await totpCode(secret, before.getTime()), before);
    return {
      token: admin.token,
      body: { password: ctx.fixture.password, code: await totpCode(secret, Date.now()) },
    };
  }),

  // ----- books -----
  call('GET /api/books/getBook/{bookId}', 200, async (ctx, i) => ({
    pathParameters: { bookId: (ctx.fixture.books[i % ctx.fixture.books.length] as BookRecord).id },
    token: ctx.fixture.reader.token,
  })),
  call('GET /api/books/getUsersPosts', 200, asReader),
  // the open requests of a course at the reader's campus: one counting Query
  call('GET /api/books/courseRequests/{course}', 200, async (ctx) => ({
    token: ctx.fixture.reader.token,
    pathParameters: { course: 'MTH 161' },
  })),
  // lookupIsbn: a timed case in lookup.ts
  call('POST /api/books/updateBook', 200, async (ctx, i) => {
    const { owner, book } = await ownBook(ctx);
    return { token: owner.token, body: { bookId: book.id, price: 20 + (i % 50) } };
  }),
  call('POST /api/books/deleteBook', 200, async (ctx) => {
    const { owner, book } = await ownBook(ctx);
    return { token: owner.token, body: { bookId: book.id } };
  }),
  call('POST /api/books/reactivateBook', 200, async (ctx) => {
    const { deleteBook } = await import('#lib/books/listings.ts');
    const { owner, book } = await ownBook(ctx);
    await deleteBook(owner.id, book.id, false);
    return { token: owner.token, body: { bookId: book.id } };
  }),
  call('POST /api/books/reportBook', 200, async (ctx) => {
    const book = await listedBook(await ctx.newUser());
    return { token: ctx.fixture.reader.token, body: { bookId: book.id, reason: 'wrong-info' } };
  }),
  call('POST /api/books/addPhoto', 201, async (ctx) => {
    const { owner, book } = await ownBook(ctx);
    return { token: owner.token, body: { bookId: book.id, contentType: 'image/jpeg' } };
  }),
  call('POST /api/books/removePhoto', 200, async (ctx) => {
    const { addPhoto } = await import('#lib/photos/photos.ts');
    const { owner, book } = await ownBook(ctx);
    const { photoId } = await addPhoto(owner.id, book.id, 'image/jpeg');
    return { token: owner.token, body: { bookId: book.id, photoId } };
  }),

  // ----- requests, matches, notifications -----
  call('POST /api/books/requestBook', 201, async (ctx) => ({
    token: (await ctx.newUser()).token,
    body: { name: 'Organic Chemistry', course: 'CHM 203' },
  })),
  call('GET /api/user/getRequests', 200, asReader),
  call('POST /api/user/deleteRequest', 200, async (ctx) => {
    const { requestBook } = await import('#lib/matching/requests.ts');
    const user = await ctx.newUser();
    const request = await requestBook(
      { userId: user.id, campus: await campusOf(user) },
      { name: 'Physics', course: 'PHY 121' },
    );
    return { token: user.token, body: { requestId: request.id } };
  }),
  call('GET /api/user/getNotifications', 200, asReader),
  call('POST /api/user/markNotificationsRead', 200, async (ctx) => ({
    token: ctx.fixture.reader.token,
    body: {},
  })),

  // ----- conversations (docs/conversations.md) -----
  call('POST /api/user/askSeller', 201, async (ctx) => {
    const { book } = await ownBook(ctx);
    return { token: (await ctx.newUser()).token, body: { bookId: book.id, text: 'Is it still available?' } };
  }),
  call('POST /api/user/messageBuyer', 201, async (ctx) => {
    const seller = await ctx.newUser();
    const { book } = await boughtBook(await ctx.newUser(), seller);
    return { token: seller.token, body: { bookId: book.id, text: 'When suits you for the hand-over?' } };
  }),
  // sendMessage, getConversations and getConversation: timed cases in conversations.ts
  call('POST /api/user/markConversationRead', 200, async (ctx) => {
    const { owner, conversationId } = await conversation(ctx);
    return { token: owner.token, body: { conversationId } };
  }),
  call('GET /api/dashboard/getConversation/{conversationId}', 200, async (ctx) => ({
    token: ctx.admin.token,
    pathParameters: { conversationId: (await conversation(ctx)).conversationId },
  })),
  call('POST /api/user/reportMessage', 200, async (ctx) => {
    const { owner, conversationId, messageId } = await conversation(ctx);
    return { token: owner.token, body: { conversationId, messageId, reason: 'spam' } };
  }),
  call('GET /api/dashboard/getMessageReports', 200, asAdmin),
  call('POST /api/dashboard/resolveMessageReport', 200, async (ctx) => {
    const { reportMessage } = await import('#lib/conversations/service.ts');
    const { owner, conversationId, messageId } = await conversation(ctx);
    await reportMessage(owner.id, { conversationId, messageId, reason: 'spam' });
    return {
      token: ctx.admin.token,
      body: { conversationId, messageId, reporterId: owner.id, action: 'dismiss' },
    };
  }),
  call('POST /api/user/blockUser', 200, async (ctx) => ({
    token: (await ctx.newUser()).token,
    body: { userId: (await ctx.newUser()).id },
  })),
  call('POST /api/user/unblockUser', 200, async (ctx) => ({
    token: (await ctx.newUser()).token,
    body: { userId: (await ctx.newUser()).id },
  })),

  // ----- saved books (lib/saved) -----
  call('POST /api/user/saveBook', 201, async (ctx) => {
    const book = await listedBook(await ctx.newUser());
    return { token: (await ctx.newUser()).token, body: { bookId: book.id } };
  }),
  call('POST /api/user/unsaveBook', 200, async (ctx) => {
    const { user, book } = await savedBook(ctx);
    return { token: user.token, body: { bookId: book.id } };
  }),
  call('GET /api/user/getSavedBooks', 200, async (ctx) => ({ token: (await savedBook(ctx)).user.token })),

  // ----- cart and orders -----
  call('GET /api/user/getCartItems', 200, async (ctx) => ({
    token: (ctx.fixture.users[1] as SeedUser).token,
  })),
  call('POST /api/user/removeFromCart', 200, async (ctx) => {
    const { addToCart } = await import('#lib/cart/cart.ts');
    const buyer = await ctx.newUser();
    const book = await listedBook(await ctx.newUser());
    await addToCart(buyer.id, book.id);
    return { token: buyer.token, body: { bookId: book.id } };
  }),
  call('POST /api/user/clearCart', 200, async (ctx) => {
    const { addToCart } = await import('#lib/cart/cart.ts');
    const buyer = await ctx.newUser();
    const seller = await ctx.newUser();
    for (let k = 0; k < 3; k++) await addToCart(buyer.id, (await listedBook(seller)).id);
    return { token: buyer.token };
  }),
  call('GET /api/user/getOrder/{orderId}', 200, async (ctx) => {
    const buyer = await ctx.newUser();
    const { order } = await boughtBook(buyer, await ctx.newUser());
    return { pathParameters: { orderId: order.id }, token: buyer.token };
  }),
  ...['getOrders', 'getPurchasedBooks', 'getSoldBooks', 'getUserData', 'getUserStatistics'].map((name) =>
    call(`GET /api/user/${name}`, 200, asReader),
  ),
  call('GET /api/user/exportData', 200, asReader),

  // ----- hand-overs (docs/handover.md): points of the new users' campus, open all week (UTC) -----
  call('GET /api/user/getHandoverPoints', 200, async (ctx) => {
    const user = await ctx.newUser();
    await handoverPoint(ctx, await campusOf(user));
    return { token: user.token };
  }),
  call('POST /api/user/proposeHandover', 200, async (ctx) => {
    const { buyer, body } = await handoverToPropose(ctx);
    return { token: buyer.token, body };
  }),
  // the buyer proposed; the seller accepts
  call('POST /api/user/answerHandover', 200, async (ctx) => {
    const { proposeHandover } = await import('#lib/handover/service.ts');
    const { buyer, seller, body } = await handoverToPropose(ctx);
    const { proposalId } = await proposeHandover(await principalOf(buyer), body);
    return { token: seller.token, body: { proposalId, accept: true } };
  }),
  // a campus with a point of its own: the admin reads that campus's points
  call('GET /api/dashboard/getHandoverPoints', 200, async (ctx) => {
    const campus = await campusOf(await ctx.newUser());
    await handoverPoint(ctx, campus);
    return { token: ctx.admin.token, query: { campus } };
  }),
  call('POST /api/dashboard/putHandoverPoint', 200, async (ctx) => ({
    token: ctx.admin.token,
    body: { campus: await campusOf(ctx.admin), name: 'Bench desk', timeZone: 'UTC', hours: ALL_WEEK },
  })),
  call('POST /api/dashboard/removeHandoverPoint', 200, async (ctx) => ({
    token: ctx.admin.token,
    body: { pointId: (await handoverPoint(ctx, await campusOf(ctx.admin))).id },
  })),
  // the day of the hand-overs answerHandover agreed
  call('GET /api/dashboard/getHandovers', 200, async (ctx) => ({
    token: ctx.admin.token,
    query: { day: tomorrowNoon().toISOString().slice(0, 10) },
  })),

  // ----- e-mail preferences -----
  call('GET /api/user/getEmailPreferences', 200, asReader),
  call('POST /api/user/updateEmailPreferences', 200, async (ctx, i) => ({
    token: (ctx.fixture.users[2 + (i % 10)] as SeedUser).token,
    body: { matches: i % 2 === 0 ? 'daily' : 'each' },
  })),
  ...(['GET', 'POST'] as const).map((method) =>
    call(`${method} /api/user/unsubscribe/{token}`, 200, async (ctx) => {
      const { unsubscribeToken } = await import('#lib/preferences/unsubscribe.ts');
      const user = await ctx.newUser();
      return { pathParameters: { token: unsubscribeToken(user.id, 'matches') } };
    }),
  ),

  // ----- dashboard -----
  ...['permissionLevel', 'getStatistics', 'getUsers', 'getOrders', 'getReports', 'getAuditLog'].map((name) =>
    call(`GET /api/dashboard/${name}`, 200, asAdmin),
  ),
  call('GET /api/dashboard/findUsers', 200, async (ctx) => ({
    token: ctx.admin.token,
    query: { query: ctx.fixture.reader.email.slice(0, 6) },
  })),
  call('GET /api/dashboard/getBooksWithStatus/{status}', 200, async (ctx) => ({
    pathParameters: { status: '0' },
    token: ctx.admin.token,
  })),
  call('POST /api/dashboard/confirmBook', 200, async (ctx) => {
    const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser());
    return { token: ctx.admin.token, body: { bookId: book.id } };
  }),
  call('POST /api/dashboard/setBookPaid', 200, async (ctx) => {
    const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser(), 2);
    return { token: ctx.admin.token, body: { bookId: book.id } };
  }),
  call('POST /api/dashboard/cancelPurchase', 200, async (ctx) => {
    const { book } = await boughtBook(await ctx.newUser(), await ctx.newUser());
    return { token: ctx.admin.token, body: { bookId: book.id, reason: 'The buyer never came.' } };
  }),
  call('POST /api/dashboard/resolveReport', 200, async (ctx) => {
    const { reportBook } = await import('#lib/moderation/reports.ts');
    const book = await listedBook(await ctx.newUser());
    await reportBook(ctx.fixture.reader.id, { bookId: book.id, reason: 'spam' });
    return { token: ctx.admin.token, body: { bookId: book.id, action: 'dismiss' } };
  }),
  call('PUT /api/dashboard/suspendUser', 200, async (ctx) => ({
    token: ctx.admin.token,
    body: { userId: (await ctx.newUser()).id, reason: 'Benchmark suspension.' },
  })),
  call('PUT /api/dashboard/reinstateUser', 200, async (ctx) => {
    const { suspendUser } = await import('#lib/moderation/suspension.ts');
    const user = await ctx.newUser();
    await suspendUser(
      { userId: ctx.admin.id, permissionType: 1 },
      { userId: user.id, reason: 'Benchmark suspension.' },
    );
    return { token: ctx.admin.token, body: { userId: user.id } };
  }),
  call('PUT /api/dashboard/makeAdmin', 200, async (ctx) => ({
    token: ctx.owner.token,
    body: { userId: (await ctx.newUser()).id },
  })),
  call('PUT /api/dashboard/revokeAdmin', 200, async (ctx) => ({
    token: ctx.owner.token,
    body: { userId: (await ctx.newUser({ permissionType: 1 })).id },
  })),
  call('POST /api/dashboard/deactivateBooks', 200, async (ctx) => ({
    token: ctx.owner.token,
    body: { olderThanDays: 365 },
  })),

  // ----- mail, docs, samples -----
  call('GET /api/openapi.json', 200, async () => ({})),
  // the sample service's Basic credentials and API key (lib/config.ts, stage local defaults)
  ...['ping', 'test'].map((name) =>
    call(`GET /api/${name}`, 200, async () => {
      const { config } = await import('#lib/config.ts');
      const basic = Buffer.from(`${config.SAMPLE_BASIC_USER}:${config.SAMPLE_BASIC_PASSWORD}`).toString(
        'base64',
      );
      return { headers: { authorization: `Basic ${basic}`, 'x-api-key': String(config.SAMPLE_API_KEY) } };
    }),
  ),
];

/** The first refresh token of a new login family of a seeded user. */
async function refreshTokenOf(user: SeedUser): Promise<string> {
  const { startRefreshFamily } = await import('#lib/accounts/sessions.ts');
  const { getUser } = await import('#lib/db/users.ts');
  const record = await getUser(user.id);
  if (!record) throw new Error('the seeded user is gone');
  return startRefreshFamily(record, { mfa: false });
}
