/**
 * Why a target is missed, written after looking at the numbers (shown beside each miss in
 * latest.md). Keyed by the check's subject (e.g. "search at 10000 books") or by the target.
 */
export const explanations: Record<string, string> = {};
