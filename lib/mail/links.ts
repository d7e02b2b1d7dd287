/**
 * Every link the service puts in an e-mail, a notification or a redirect, built in one place so
 * they all follow the web app's routes (web/src/router.tsx). Pages of the web app use APP_URL and
 * fall back to the service's own URL (PUBLIC_URL) when there is no front end; the service's own
 * endpoints (the confirmation link) always use PUBLIC_URL.
 */
import { config } from '#lib/config.ts';

/** A base URL without its trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');

/** The web app's origin, or the service's when no front end is configured. */
const appBase = (): string => trimBase(config.APP_URL || config.PUBLIC_URL);
const seg = encodeURIComponent;

/**
 * Pages of the web app, as paths (web/src/shell/routes.tsx): what a notification links to inside
 * the app, and what the e-mail links below put after the app's origin.
 */
export const appPaths = {
  book: (bookId: string): string => `/books/${seg(bookId)}`,
  conversation: (conversationId: string): string => `/messages/${seg(conversationId)}`,
  order: (orderId: string): string => `/orders/${seg(orderId)}`,
  /** the caller's purchases and sales */
  orders: (): string => '/orders',
  /** the seller's own listings */
  listings: (): string => '/listings',
  /** the caller's requests and their matches */
  requests: (): string => '/requests',
  saved: (): string => '/saved',
  messages: (): string => '/messages',
  /** the caller's settings (two-factor sign-in, password, e-mail preferences) */
  settings: (): string => '/settings',
  /** where one asks for a password reset link */
  forgotPassword: (): string => '/forgot-password',
} as const;

/**
 * The address people are told to write to: CONTACT_EMAIL (an inbox somebody reads), else MAIL_FROM's
 * own address.
 */
export const contactAddress = (): string =>
  config.CONTACT_EMAIL ?? /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();

export const appLinks = {
  /** The service's own confirmation endpoint (GET /api/auth/confirm/{token}). */
  confirmation: (token: string): string => `${trimBase(config.PUBLIC_URL)}/api/auth/confirm/${seg(token)}`,
  /** The web app's page that finishes a confirmation (only with APP_URL). */
  confirmPage: (appUrl: string, token: string): string => `${trimBase(appUrl)}/confirm?token=${seg(token)}`,
  /** The same page for a link that no longer works: `confirmed`, `replaced` or `invalid` (only with APP_URL). */
  confirmState: (appUrl: string, state: 'confirmed' | 'replaced' | 'invalid'): string =>
    `${trimBase(appUrl)}/confirm?state=${state}`,
  resetPassword: (token: string): string => `${appBase()}/reset-password?token=${seg(token)}`,
  /** The web app's unsubscribe page (only with APP_URL). */
  unsubscribePage: (appUrl: string, token: string): string =>
    `${trimBase(appUrl)}/unsubscribe?token=${seg(token)}`,
  /** The login page with a front end, else the service's front door. */
  login: (): string => (config.APP_URL ? `${trimBase(config.APP_URL)}/login` : trimBase(config.PUBLIC_URL)),
  /** The login page with the unlock token (docs/security.md, device cookies). */
  unlock: (token: string): string => `${appBase()}/login?unlock=${seg(token)}`,
  conversation: (conversationId: string): string => `${appBase()}${appPaths.conversation(conversationId)}`,
  order: (orderId: string): string => `${appBase()}${appPaths.order(orderId)}`,
  book: (bookId: string): string => `${appBase()}${appPaths.book(bookId)}`,
  /** a mailto link to the contact address */
  contact: (): string => `mailto:${contactAddress()}`,
  /** a page of the app by its path (appPaths) */
  page: (path: string): string => `${appBase()}${path}`,
} as const;
