/**
 * Why a target is missed, written after looking at the numbers (shown beside each miss in
 * latest.md). Keyed by the check's subject (e.g. "search at 10000 books") or by the target.
 */
export const explanations: Record<string, string> = {
  'import in a fresh process under 150 ms':
    'the six that miss carry the most: the e-mail-sending auth functions bundle the SES client and bcryptjs beside the DynamoDB client (515-520 KB), and a 450-520 KB bundle spends its import compiling and evaluating the AWS SDK clients (middleware stack, endpoint rules), zod (every schema is built at load) and Powertools. The sample functions (233 KB, no SDK) took 81-110 ms in the same run, so about 100 ms is the floor of a fresh Node process on this machine. This run had the machine to itself (load average 0.3 at start) and takes the median of several imports, yet bundles of the same size still differ by 30-50 ms between functions (dashboardSetBookPaid, 464 KB, 178 ms, against 117-135 ms for its neighbours), so the misses are close to the noise. Next steps: zod/mini instead of zod classic, and building the SES client on first use.',
};
