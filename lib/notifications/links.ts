/**
 * The page a notification talks about: its `link` in getNotifications (a path in the web app) and
 * the link of its e-mail (the same path after the app's origin, lib/notifications/notify.ts). One
 * rule for both, so a notification and its e-mail always open the same page.
 */
import type { NotificationKind } from '#lib/db/notifications.ts';
import { appPaths } from '#lib/mail/links.ts';

/** What a notification's page is made of. */
export interface Linked {
  kind: NotificationKind;
  bookId?: string | undefined;
  conversationId?: string | undefined;
  orderId?: string | undefined;
}

/**
 * The page a notification opens (issue 32, item 3): its conversation, order or book, else the list
 * it belongs to (a notification stored before it carried the id). Pure.
 */
export function notificationPath(n: Linked): string {
  switch (n.kind) {
    case 'message':
      return n.conversationId ? appPaths.conversation(n.conversationId) : appPaths.messages();
    case 'match':
      return n.bookId ? appPaths.book(n.bookId) : appPaths.requests();
    case 'saved':
      return n.bookId ? appPaths.book(n.bookId) : appPaths.saved();
    case 'unlisted':
      return appPaths.listings();
    case 'fulfilled':
      // a request closed by a purchase: the requests left, and the form to ask again
      return appPaths.requests();
    default:
      // handover and the purchase steps: the order (the buyer's, or the seller's part of it)
      return n.orderId ? appPaths.order(n.orderId) : appPaths.orders();
  }
}
