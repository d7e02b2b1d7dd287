/** Percentiles and small numeric helpers for the benchmark (pure). */

/** The p-th percentile (0..100) of `samples`, nearest-rank on a sorted copy; NaN when empty. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

export function summarise(samples: readonly number[]): Summary {
  const mean = samples.length === 0 ? Number.NaN : samples.reduce((s, x) => s + x, 0) / samples.length;
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}

/** Rounds to `digits` decimals (for the report). */
export const round = (x: number, digits = 2): number => {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Relative spread of two values: |a - b| / max(|a|, |b|); 0 when both are 0. */
export function relativeDifference(a: number, b: number): number {
  const m = Math.max(Math.abs(a), Math.abs(b));
  return m === 0 ? 0 : Math.abs(a - b) / m;
}
