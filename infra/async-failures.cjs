/**
 * Nothing asynchronous fails silently: every function Lambda invokes asynchronously (schedules, SNS,
 * the photo bucket's notification: every function with neither an HTTP route nor a stream) gets
 *  - a failure destination, the queue ScheduledFailureQueue (infra/ops.yml; its name is older than
 *    its use), unless it names its own:
 *    an event Lambda gave up on after its two retries is kept there, with the error;
 *  - its role's permission to send there (Lambda sends with the function's role);
 *  - an alarm on its `Errors`, unless infra/ops.yml already has one for it.
 * Added at package time, so a new background function needs no line for it;
 * tests/package/operations.test.ts checks every one.
 */
'use strict';

const QUEUE = 'ScheduledFailureQueue';

const isAsync = (fn) => !(fn.events ?? []).some((e) => e.httpApi || e.stream);

class AsyncFailures {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      initialize: () => this.destinations(),
      'after:aws:package:finalize:mergeCustomProviderResources': () => this.alarms(),
    };
  }

  asyncFunctions() {
    return Object.entries(this.serverless.service.functions ?? {}).filter(([, fn]) => isAsync(fn));
  }

  destinations() {
    for (const [, fn] of this.asyncFunctions()) {
      fn.destinations ??= {};
      fn.destinations.onFailure ??= { type: 'sqs', arn: { 'Fn::GetAtt': [QUEUE, 'Arn'] } };
    }
  }

  alarms() {
    const naming = this.serverless.getProvider('aws').naming;
    const service = this.serverless.service.service;
    const stage = this.serverless.getProvider('aws').getStage();
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    const watched = new Set(
      Object.values(resources)
        .filter((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === 'Errors')
        .flatMap((r) => (r.Properties.Dimensions ?? []).map((d) => d.Value?.Ref)),
    );
    for (const [name, fn] of this.asyncFunctions()) {
      const id = naming.getLambdaLogicalId(name);
      const role = resources[fn.role];
      if (typeof fn.role !== 'string' || role?.Type !== 'AWS::IAM::Role') {
        throw new Error(
          `infra/async-failures.cjs: ${name}'s role "${fn.role}" is not a role of this template`,
        );
      }
      const destination = fn.destinations.onFailure.arn;
      const statements = role.Properties.Policies[0].PolicyDocument.Statement;
      const sends = JSON.stringify(destination);
      if (
        !statements.some((s) => s.Action === 'sqs:SendMessage' && JSON.stringify(s.Resource).includes(sends))
      ) {
        statements.push({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: [destination] });
      }
      if (watched.has(id)) continue;
      resources[`${id}ErrorsAlarm`] = {
        Type: 'AWS::CloudWatch::Alarm',
        Properties: {
          AlarmName: `${service}-${stage}-${name}-errors`,
          AlarmDescription: `${name} failed (docs/deploy.md, Alarms: async-errors)`,
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }],
          Statistic: 'Sum',
          Period: 300,
          EvaluationPeriods: 1,
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
          AlarmActions: [{ Ref: 'AlarmTopic' }],
        },
      };
    }
  }
}

module.exports = AsyncFailures;
