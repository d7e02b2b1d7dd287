/**
 * Room to grow (docs/deploy.md): CloudFormation refuses a stack of more than 500 resources. Each
 * HTTP function costs five (function, log group, permission, integration, route), so they live in
 * one nested stack per area (infra/stacks-map.cjs) and every stack keeps a margin below 400, today
 * and with twice today's routes (scripts/package-doubled.ts packages that variant).
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_CEILING, resourceCounts } from '#scripts/package/stacks.ts';
import { packageDoubled } from '#scripts/package-doubled.ts';
import { resourcesOfType, stackOf, stacks, template } from '#tests/helpers/template.ts';

describe('stacks of the deployment (packaged template)', () => {
  it(`keeps every stack below ${RESOURCE_CEILING} resources`, () => {
    const counts = resourceCounts(stacks());
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.filter((s) => s.resources >= RESOURCE_CEILING)).toEqual([]);
  });

  it("puts each HTTP function with its log group, permission, integration and route in its area's stack", () => {
    const t = template().Resources;
    const routes = Object.entries(resourcesOfType('AWS::ApiGatewayV2::Route'));
    expect(routes.length).toBeGreaterThan(40);
    const misplaced: string[] = [];
    for (const [routeId, route] of routes) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const fnId = t[integrationId]?.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      const area = /^functions\/([a-z-]+)\//.exec(t[fnId]?.Properties.Handler ?? '')?.[1] ?? '?';
      const expected = `Api${area.charAt(0).toUpperCase()}${area.slice(1)}NestedStack`;
      const base = fnId.replace(/LambdaFunction$/, '');
      for (const id of [routeId, integrationId, fnId, `${base}LogGroup`, `${base}LambdaPermissionHttpApi`]) {
        if (stackOf(id) !== expected) misplaced.push(`${id} in ${stackOf(id)}, not ${expected}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it(`packages a variant with twice today's routes, every stack still below ${RESOURCE_CEILING}`, async () => {
    const doubled = await packageDoubled();
    expect(doubled.todaysRoutes).toBe(Object.keys(resourcesOfType('AWS::ApiGatewayV2::Route')).length);
    expect(doubled.routes).toBe(2 * doubled.todaysRoutes);
    expect(doubled.stacks.filter((s) => s.resources >= RESOURCE_CEILING)).toEqual([]);
  }, 900_000);
});
