/**
 * A user's campus (API.md, Additions, "Campus scoping"): the last two labels of the confirmed
 * address's domain, lower-cased, so `ada@cs.uni.edu` and `bob@uni.edu` are both `uni.edu`. Set by
 * the service at sign-up, never by a client. A user record without one (seeded without a campus)
 * gets theirs from its address on every read (`campusOfUser`).
 */

/** The campus of an e-mail address. */
export function campusOfEmail(email: string): string {
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  return domain.split('.').filter(Boolean).slice(-2).join('.');
}

/** A stored user's campus: the stored one, or else the one of their address. */
export const campusOfUser = (u: { campus?: string | null; emailNormalised?: string | null }): string =>
  u.campus ?? campusOfEmail(u.emailNormalised ?? '');

/** The shape of a campus in a query string: a domain of two labels, or `all`. */
export const CAMPUS_PATTERN =
  /^(all|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/;
