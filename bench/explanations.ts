/**
 * Why a target is missed, written after looking at the numbers (shown beside each miss in
 * latest.md). Keyed by the check's subject (e.g. "search at 10000 books") or by the target.
 */
export const explanations: Record<string, string> = {
  'import in a fresh process under 150 ms':
    'a 450-520 KB bundle spends its import compiling and evaluating the AWS SDK client (middleware stack, endpoint rules), zod (every schema is built at load) and Powertools; in the same run the sample functions (231 KB, no SDK) took 108-119 ms, so about 110 ms is the floor of a fresh Node process importing anything of this kind on this machine. The run shared its 2 cores with other test suites (load average 3.5 to 9), which inflates these times and their spread (131-280 ms for bundles within 10 % of each other in size).',
};
