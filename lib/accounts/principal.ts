/** The authenticated caller of a request, as lib/http/auth.ts builds it from a token and the user record. */
export interface Principal {
  userId: string;
  permissionType: number;
  tokenVersion: number;
  /** the caller's campus (the default of `?campus=` on listings and searches) */
  campus: string;
  /** the users the caller blocked: their listings are left out of the caller's browsing and search */
  blockedIds?: readonly string[];
  /** whether the session passed a second factor (the token's `mfa` claim; false for everyone today) */
  mfa?: boolean;
}
