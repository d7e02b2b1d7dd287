import { describe, expect, it } from 'vitest';
import { cases } from '#bench/cases/index.ts';
import { routeCalls } from '#bench/cases/routes.ts';
import { routeCoverage } from '#bench/harness/routes.ts';
import { declaredRoutes } from '#tests/helpers/routes.ts';

describe('every route in the benchmark', () => {
  it('covers each route of serverless.yml once: by a latency case with a floor or by a route call', () => {
    const coverage = routeCoverage(cases, routeCalls);
    expect(coverage.missing).toEqual([]);
    expect(coverage.unknown).toEqual([]);
    expect(coverage.duplicated).toEqual([]);
    expect(coverage.routes.length).toBe(declaredRoutes().length);
    expect(coverage.byCase.size + routeCalls.length).toBe(coverage.routes.length);
  });

  it('names a route left out of the benchmark, a route call of no route and a route covered twice', () => {
    const [dropped, ...rest] = routeCalls;
    const coverage = routeCoverage(cases, [
      ...rest,
      { route: 'GET /api/no/such/route' },
      { route: 'GET /api/books/getAllBooks' },
    ]);
    expect(coverage.missing).toEqual([dropped?.route]);
    expect(coverage.unknown).toEqual(['GET /api/no/such/route']);
    expect(coverage.duplicated).toEqual(['GET /api/books/getAllBooks']);
  });
});
