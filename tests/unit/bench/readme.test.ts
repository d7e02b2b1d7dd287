import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '#bench/harness/report.ts';
import { README, RESULTS, renderResults, withSection } from '#bench/readme.ts';

const results = () => JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults;
const readme = () => readFileSync(README, 'utf8');

describe("bench/README.md's results", () => {
  it('are exactly the rendering of bench/results/latest.json (run npx tsx bench/readme.ts after a run)', () => {
    expect(readme()).toBe(withSection(readme(), renderResults(results())));
  });

  it('disagree as soon as one figure of the JSON changes', () => {
    const changed = results();
    const first = changed.cases[0]?.bySize[0];
    if (!first) throw new Error('latest.json has no case');
    first.latency.endpoint.p50 += 1;
    expect(readme()).not.toBe(withSection(readme(), renderResults(changed)));
  });

  it("state the machine's load at start, and that it was busy when the load reached the cores", () => {
    const r = results();
    const idle = renderResults({ ...r, machine: { ...r.machine, cpus: 2, load: [0.3, 1.92, 4.43] } });
    expect(idle).toContain('load average at start 0.30 / 1.92 / 4.43');
    expect(idle).not.toContain('shared with other work');
    const busy = renderResults({ ...r, machine: { ...r.machine, cpus: 2, load: [9.3, 9.6, 9.2] } });
    expect(busy).toContain('at or above the 2 cores, the machine was shared with other work');
  });
});
