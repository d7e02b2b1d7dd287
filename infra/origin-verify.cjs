/**
 * CloudFront's origin-verify secret (infra/edge.yml; checked by lib/http/stack.ts, used by
 * lib/http/client-address.ts) for every HTTP function, whatever its area or role:
 *  - each gets ORIGIN_VERIFY_SECRET_ID (at `initialize`, so serverless-offline sees the same
 *    environment; lib/config.ts reads no secret on local and test, so there is no check there);
 *  - each one's role gets the managed policy OriginVerifyReadPolicy (serverless.yml), which may read
 *    that secret and nothing else: after the custom resources are merged into the template, before
 *    infra/split-stacks.cjs (listed after this plugin) moves anything.
 * A new HTTP function or role needs no line for it. tests/package/iam.test.ts checks both.
 */
'use strict';

const POLICY = 'OriginVerifyReadPolicy';

class OriginVerify {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      initialize: () => this.environment(),
      'after:aws:package:finalize:mergeCustomProviderResources': () => this.grant(),
    };
  }

  httpFunctions() {
    return Object.entries(this.serverless.service.functions ?? {}).filter(([, fn]) =>
      (fn.events ?? []).some((e) => e.httpApi),
    );
  }

  environment() {
    const id = this.serverless.service.custom?.secretIds?.originVerify;
    if (!id) throw new Error('infra/origin-verify.cjs: custom.secretIds.originVerify is not set');
    for (const [, fn] of this.httpFunctions()) {
      fn.environment = { ...(fn.environment ?? {}), ORIGIN_VERIFY_SECRET_ID: id };
    }
  }

  grant() {
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    if (!resources[POLICY]) throw new Error(`infra/origin-verify.cjs: the template has no ${POLICY}`);
    const roles = new Set();
    for (const [name, fn] of this.httpFunctions()) {
      if (typeof fn.role !== 'string' || resources[fn.role]?.Type !== 'AWS::IAM::Role') {
        throw new Error(
          `infra/origin-verify.cjs: ${name}'s role "${fn.role}" is not a role of this template`,
        );
      }
      roles.add(fn.role);
    }
    for (const role of roles) {
      const props = resources[role].Properties;
      props.ManagedPolicyArns = [...(props.ManagedPolicyArns ?? []), { Ref: POLICY }];
    }
  }
}

module.exports = OriginVerify;
