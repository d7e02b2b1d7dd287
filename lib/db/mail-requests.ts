/**
 * Account e-mail requests (`MAILREQ#<id>` / `MAILREQ`) as the previous release stored them; the
 * public e-mail routes now queue their requests in the outbox (lib/outbox/queue.ts), and the main
 * stream consumer hands any request of the old form over to it (lib/accounts/mail-processor.ts).
 */

export type MailRequestKind = 'password-reset' | 'resend-confirmation';

/** MAILREQ#<id> / MAILREQ */
export interface MailRequestRecord {
  type: 'mailRequest';
  id: string;
  kind: MailRequestKind;
  /** the address as normalised (the uniqueness key form) */
  emailNormalised: string;
  requestedAt: string;
  state: 'pending' | 'claimed';
  /** epoch seconds, the table's TTL attribute */
  ttl: number;
}
