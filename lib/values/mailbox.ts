/**
 * The mailbox an address reaches, as far as the service can tell: what decides "the same person"
 * for accounts (one account per mailbox) and for reports (lib/moderation/reports.ts).
 *
 * From an address already normalised (trimmed, NFKC, lower case; lib/accounts/rules.ts): the
 * sub-address after the first `+` of the local part is dropped on every campus (Google Workspace
 * and Microsoft 365 deliver `a+x@` to `a@` by default), and on the campuses configured as
 * Gmail-style (`GMAIL_STYLE_DOMAINS`) the dots of the local part are dropped too.
 */
export function mailboxOf(normalised: string, gmailStyleDomains: readonly string[]): string {
  const at = normalised.lastIndexOf('@');
  if (at <= 0) return normalised;
  const domain = normalised.slice(at + 1);
  let local = normalised.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (gmailStyleDomains.some((d) => d.toLowerCase() === domain)) local = local.replaceAll('.', '') || local;
  return `${local}@${domain}`;
}
