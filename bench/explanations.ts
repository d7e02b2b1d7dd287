/**
 * Why a target is missed, written after looking at the numbers (shown beside each miss in
 * latest.md). Keyed by the check's subject (e.g. "search at 10000 books") or by the target.
 * No figures here: they would outlive the run they came from (the figures are in the tables).
 */
export const explanations: Record<string, string> = {
  'import in a fresh process under 150 ms':
    "the biggest bundles miss first: a fresh process's import compiles and evaluates the whole bundle, the AWS SDK clients (middleware stack, endpoint rules), zod (every schema is built at load) and Powertools; the e-mail-sending functions also carry the SES client and bcryptjs. The import is the median of several fresh processes, and it grows with the machine's load at start (printed at the top). Next steps: zod/mini instead of zod classic, and the clients built on first use.",
};
