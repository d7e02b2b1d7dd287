/**
 * Where each resource of the packaged template goes (serverless-plugin-split-stacks' custom map,
 * wired by infra/split-stacks.cjs): every HTTP function moves, with its log group, its API Gateway
 * permission, integration and route, into the nested stack of its area, the folder of its handler
 * (`functions/books/...` -> `ApiBooksNestedStack`). Everything else stays in the root stack: the
 * table, roles, secrets, the HTTP API and its stage, the edge, alarms, and the background functions
 * that root resources point at (stream consumers, schedules, mail feedback, photo processing).
 *
 * The map is a pure function of serverless.yml, so a route never changes stacks between two
 * deploys (a route created in one stack while still held by another would fail on its route key).
 * Why and the arithmetic: docs/deploy.md, "Room to grow".
 */
'use strict';

const owners = new WeakMap();

/** `books` -> `ApiBooks`, `self-service` -> `ApiSelfService`. */
function destinationOf(area) {
  return `Api${area.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase())}`;
}

/** logical id -> nested stack destination, for the resources of every HTTP function. */
function ownersOf(plugin) {
  const naming = plugin.provider.naming;
  const out = new Map();
  for (const [name, fn] of Object.entries(plugin.serverless.service.functions ?? {})) {
    if (!(fn.events ?? []).some((e) => e.httpApi)) continue;
    const area = /^functions\/([a-z][a-z0-9-]*)\//.exec(fn.handler ?? '')?.[1];
    if (!area) {
      throw new Error(
        `infra/stacks-map.cjs: ${name}'s handler "${fn.handler}" is not under functions/<area>/`,
      );
    }
    const destination = destinationOf(area);
    for (const id of [
      naming.getLambdaLogicalId(name),
      naming.getLogGroupLogicalId(name),
      naming.getLambdaHttpApiPermissionLogicalId(name),
      naming.getHttpApiIntegrationLogicalId(name),
    ]) {
      out.set(id, destination);
    }
  }
  return out;
}

/** A route's integration: its Target is `integrations/<Ref HttpApiIntegration...>`. */
function integrationOf(route) {
  const parts = route.Properties?.Target?.['Fn::Join']?.[1] ?? [];
  return parts.find((p) => p && typeof p === 'object' && 'Ref' in p)?.Ref;
}

/**
 * Called by the plugin for every resource, with the plugin's strategy as `this`. Returns the nested
 * stack, or false to keep the resource in the root stack.
 */
module.exports = function stacksMap(resource, logicalId) {
  const plugin = this.plugin;
  if (!owners.has(plugin)) owners.set(plugin, ownersOf(plugin));
  const owner = owners.get(plugin);
  const id = resource.Type === 'AWS::ApiGatewayV2::Route' ? integrationOf(resource) : logicalId;
  const destination = owner.get(id);
  return destination ? { destination } : false;
};

module.exports.destinationOf = destinationOf;
