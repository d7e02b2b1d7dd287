/**
 * Why a target is missed, written after looking at the numbers (shown beside each miss in
 * latest.md). Keyed by the check's subject (e.g. "search at 10000 books") or by the target.
 * No figures here: they would outlive the run they came from (the figures are in the tables).
 */
export const explanations: Record<string, string> = {
  'import in a fresh process under 150 ms':
    "a fresh process's import parses and evaluates the whole bundle: the AWS SDK's core and DynamoDB client (about half of every bundle), zod/mini's schemas (built at load), jose; the biggest bundles (the S3 client of the photo routes, the stream consumer) miss first. It grows with the machine's load at start (printed at the top).",
  'cold init (fresh process: import + first call) p50 at most 100 ms':
    "after the trims of issue 19 (no undici, no ICU zone data, no shared-config reads, no Powertools logger) the rest is the AWS SDK: evaluating its modules at import, then on the first call its lazily built middleware stack, endpoint rules, SigV4 signer and the https and crypto modules. What is left to win is replacing the SDK's DynamoDB client by a small signed-fetch client of our own (not done: it would change every data-layer call).",
};
