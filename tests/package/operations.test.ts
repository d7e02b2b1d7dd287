import { describe, expect, it } from 'vitest';
import { envOf, lambdaFunctions, resourcesOfType, stackOf, template } from '#tests/helpers/template.ts';

const res = () => template().Resources;
const alarm = (id: string) => {
  const a = res()[id];
  expect(a?.Type, id).toBe('AWS::CloudWatch::Alarm');
  return a?.Properties ?? {};
};

describe('API edge (packaged template)', () => {
  it('lets API Gateway answer CORS for each configured origin and expose Retry-After, Idempotent-Replayed and ETag', () => {
    const cors = res().HttpApi?.Properties.CorsConfiguration;
    expect(cors.AllowOrigins).toEqual(['https://dev.campusbooks.example.edu']);
    expect(cors.ExposeHeaders.sort()).toEqual(['ETag', 'Idempotent-Replayed', 'Retry-After']);
    expect(cors.AllowHeaders).toEqual(
      expect.arrayContaining(['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match']),
    );
  });

  it('throttles the stage, and the expensive public routes more tightly', () => {
    const stage = res().HttpApiStage?.Properties ?? {};
    expect(stage.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    const routes = Object.keys(resourcesOfType('AWS::ApiGatewayV2::Route')).length;
    expect(routes).toBeGreaterThan(40);
    for (const key of [
      'POST /api/auth/login',
      'POST /api/auth/signup',
      'POST /api/auth/passwordResetRequest',
      'POST /api/auth/passwordReset',
      'GET /api/books/getBooksNoToken/{limit}/{skip}',
    ]) {
      const s = stage.RouteSettings[key];
      expect(s, key).toBeDefined();
      expect(s.ThrottlingRateLimit, key).toBeLessThan(stage.DefaultRouteSettings.ThrottlingRateLimit);
      // The route exists: a typo would throttle nothing.
      expect(
        Object.values(resourcesOfType('AWS::ApiGatewayV2::Route')).some((r) => r.Properties.RouteKey === key),
        key,
      ).toBe(true);
    }
  });

  it('creates the stage after every route its RouteSettings name (else the first deploy rolls back)', () => {
    const stage = res().HttpApiStage;
    const dependsOn = [stage?.DependsOn ?? []].flat();
    const keys = Object.keys(stage?.Properties.RouteSettings ?? {});
    expect(keys.length).toBeGreaterThanOrEqual(7);
    const routes = Object.entries(resourcesOfType('AWS::ApiGatewayV2::Route'));
    const missing = keys.filter((key) => {
      const id = routes.find(([, r]) => r.Properties.RouteKey === key)?.[0];
      if (!id) return true;
      // A route in a nested stack is waited for through that stack.
      const holder = stackOf(id);
      return !dependsOn.includes(holder === 'root' ? id : (holder ?? id));
    });
    expect(missing).toEqual([]);
  });

  it('serves the web app from a private bucket and /api/* from the API on one domain, behind WAF', () => {
    const d = res().Distribution?.Properties.DistributionConfig;
    expect(d.Aliases).toEqual(['dev.campusbooks.example.edu']);
    expect(d.ViewerCertificate.AcmCertificateArn).toMatch(/^arn:aws:acm:us-east-1:/);
    expect(d.WebACLId).toEqual({ 'Fn::GetAtt': ['WebAcl', 'Arn'] });
    const web = d.Origins.find((o: { Id: string }) => o.Id === 'web');
    expect(web.OriginAccessControlId).toEqual({ 'Fn::GetAtt': ['WebOriginAccessControl', 'Id'] });
    expect(d.DefaultCacheBehavior.TargetOriginId).toBe('web');
    const api = d.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api.TargetOriginId).toBe('api');
    expect(JSON.stringify(d.Origins.find((o: { Id: string }) => o.Id === 'api').DomainName)).toContain(
      'HttpApi',
    );
    const block = res().WebBucket?.Properties.PublicAccessBlockConfiguration;
    expect(block).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    const acl = res().WebAcl?.Properties ?? {};
    expect(acl.Scope).toBe('CLOUDFRONT');
    const rate = acl.Rules.find((r: { Name: string }) => r.Name === 'rate-per-ip');
    // scoped to /api/* (tests/package/edge.test.ts)
    expect(rate.Statement.RateBasedStatement).toMatchObject({ Limit: 2000, AggregateKeyType: 'IP' });
    expect(rate.Action).toEqual({ Block: {} });
  });

  it('reserves concurrency for the stream consumer', () => {
    expect(lambdaFunctions().streamsConsumer?.Properties.ReservedConcurrentExecutions).toBe(5);
  });

  it('reserves at least as much concurrency as the stream mappings may use at once (no throttling)', () => {
    // Lambda runs up to (shards x parallelization factor) batches of a stream consumer at once; a new
    // on-demand table has 4 partitions, so 4 shards (docs/concurrency.md, "Consumer concurrency").
    const SHARDS = 4;
    const mappings = Object.values(resourcesOfType('AWS::Lambda::EventSourceMapping'));
    expect(mappings.length).toBe(2);
    const short: string[] = [];
    for (const m of mappings) {
      const fnId = m.Properties.FunctionName['Fn::GetAtt'][0] as string;
      const reserved = res()[fnId]?.Properties.ReservedConcurrentExecutions;
      const demand = SHARDS * (m.Properties.ParallelizationFactor ?? 1);
      if (reserved !== undefined && reserved < demand)
        short.push(`${fnId}: ${reserved} reserved < ${demand}`);
    }
    expect(short).toEqual([]);
    expect(res().StreamsConsumerLambdaFunction?.Properties.ReservedConcurrentExecutions).toBeDefined();
  });
});

describe('data protection (packaged template)', () => {
  // What a deleted stack or a replaced resource must never take with it. The deployment bucket
  // (osls's own, ServerlessDeploymentBucket) holds build artifacts only: `serverless remove` empties it.
  const STATEFUL = [
    'AWS::DynamoDB::Table',
    'AWS::S3::Bucket',
    'AWS::Backup::BackupVault',
    'AWS::SecretsManager::Secret',
    'AWS::KMS::Key',
  ];

  it('retains every stateful resource when the stack is deleted or the resource replaced', () => {
    const stateful = Object.entries(res()).filter(
      ([id, r]) => STATEFUL.includes(r.Type) && id !== 'ServerlessDeploymentBucket',
    );
    expect(stateful.map(([id]) => id).sort()).toEqual(
      [
        'BackupVault',
        'CursorSecret',
        'JwtSecret',
        'OriginVerifySecret',
        'PhotosBucket',
        'SampleApiKeySecret',
        'SampleBasicPasswordSecret',
        'Table',
        'TableKey',
        'WebBucket',
      ].sort(),
    );
    const notRetained = stateful
      .filter(([, r]) => r.DeletionPolicy !== 'Retain' || r.UpdateReplacePolicy !== 'Retain')
      .map(([id]) => id);
    expect(notRetained).toEqual([]);
  });

  it("names the photos bucket from the stage's params, not the deployer's shell", () => {
    // tests/setup/package.ts packages with PHOTOS_BUCKET set in the environment. The default name
    // takes the account id from CloudFormation at deploy time (packaging needs no credentials).
    const bucket = ['campus-books-dev-photos-$', '{AWS::AccountId}'].join('');
    // The split into stacks writes each Sub as [text, variables] (none here).
    const sub = (v: unknown) => {
      const text = [(v as { 'Fn::Sub'?: unknown })?.['Fn::Sub']].flat();
      expect(text.slice(1).every((vars) => JSON.stringify(vars) === '{}')).toBe(true);
      return text[0];
    };
    expect(sub(res().PhotosBucket?.Properties.BucketName)).toBe(bucket);
    for (const [name, fn] of Object.entries(lambdaFunctions()))
      expect(sub(envOf(fn).PHOTOS_BUCKET), name).toBe(bucket);
    expect(JSON.stringify(template())).not.toContain('from-the-shell-not-the-stage');
  });

  it('keeps the table: deletion protection, retained, encrypted with its own rotated KMS key', () => {
    const t = res().Table;
    expect(t?.DeletionPolicy).toBe('Retain');
    expect(t?.Properties.DeletionProtectionEnabled).toBe(true);
    expect(t?.Properties.SSESpecification).toEqual({
      SSEEnabled: true,
      SSEType: 'KMS',
      KMSMasterKeyId: { Ref: 'TableKey' },
    });
    expect(res().TableKey?.Properties.EnableKeyRotation).toBe(true);
  });

  it('backs the table up daily with AWS Backup', () => {
    const plan = res().BackupPlan?.Properties.BackupPlan;
    expect(plan.BackupPlanRule[0].ScheduleExpression).toMatch(/^cron\(/);
    expect(plan.BackupPlanRule[0].Lifecycle.DeleteAfterDays).toBeGreaterThanOrEqual(7);
    expect(res().BackupSelection?.Properties.BackupSelection.Resources).toEqual([
      { 'Fn::GetAtt': ['Table', 'Arn'] },
    ]);
  });
});

describe('alarms (packaged template)', () => {
  const fnDim = (logicalId: string) => [{ Name: 'FunctionName', Value: { Ref: logicalId } }];

  it.each([
    ['StreamConsumerErrorsAlarm', 'AWS/Lambda', 'Errors', fnDim('StreamsConsumerLambdaFunction')],
    ['StreamConsumerIteratorAgeAlarm', 'AWS/Lambda', 'IteratorAge', fnDim('StreamsConsumerLambdaFunction')],
    ['ScheduledJobErrorsAlarm', 'AWS/Lambda', 'Errors', fnDim('ScheduledUnlistStaleBooksLambdaFunction')],
    ['MailFeedbackErrorsAlarm', 'AWS/Lambda', 'Errors', fnDim('MailFeedbackLambdaFunction')],
    ['OutboxConsumerErrorsAlarm', 'AWS/Lambda', 'Errors', fnDim('OutboxConsumerLambdaFunction')],
    ['OutboxConsumerIteratorAgeAlarm', 'AWS/Lambda', 'IteratorAge', fnDim('OutboxConsumerLambdaFunction')],
    [
      'StreamDeadLettersAlarm',
      'AWS/SQS',
      'ApproximateNumberOfMessagesVisible',
      [{ Name: 'QueueName', Value: { 'Fn::GetAtt': ['StreamFailureQueue', 'QueueName'] } }],
    ],
    [
      'ScheduledDeadLettersAlarm',
      'AWS/SQS',
      'ApproximateNumberOfMessagesVisible',
      [{ Name: 'QueueName', Value: { 'Fn::GetAtt': ['ScheduledFailureQueue', 'QueueName'] } }],
    ],
    [
      'ApiServerErrorsAlarm',
      'AWS/ApiGateway',
      '5xx',
      [
        { Name: 'ApiId', Value: { Ref: 'HttpApi' } },
        { Name: 'Stage', Value: '$default' },
      ],
    ],
    ['FunctionThrottlesAlarm', 'AWS/Lambda', 'Throttles', undefined],
    [
      'EmailsFailedAlarm',
      'CampusBooks',
      'EmailsFailed',
      [
        { Name: 'service', Value: 'campus-books' },
        { Name: 'stage', Value: 'dev' },
      ],
    ],
    [
      'OutboxFailedAlarm',
      'CampusBooks',
      'OutboxFailed',
      [
        { Name: 'service', Value: 'campus-books' },
        { Name: 'stage', Value: 'dev' },
      ],
    ],
    [
      'DigestsUnfinishedAlarm',
      'CampusBooks',
      'DigestRunsUnfinished',
      [
        { Name: 'service', Value: 'campus-books' },
        { Name: 'stage', Value: 'dev' },
      ],
    ],
    ['MailBounceRateAlarm', 'AWS/SES', 'Reputation.BounceRate', undefined],
    ['MailComplaintRateAlarm', 'AWS/SES', 'Reputation.ComplaintRate', undefined],
  ])('%s watches %s %s with the right dimensions and tells the alarm topic', (id, ns, metric, dims) => {
    const a = alarm(id);
    expect(a.Namespace).toBe(ns);
    expect(a.MetricName).toBe(metric);
    expect(a.Dimensions).toEqual(dims);
    expect(a.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
  });

  it('mails the alarms to the stage alarm address', () => {
    expect(res().AlarmTopic?.Properties.Subscription).toEqual([
      { Protocol: 'email', Endpoint: 'ops@campusbooks.example.edu' },
    ]);
  });

  it('gives every asynchronous function a failure destination its role may send to, and an error alarm', () => {
    const httpOrStream = new Set(
      Object.values(res())
        .filter(
          (r) =>
            (r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === 'apigateway.amazonaws.com') ||
            r.Type === 'AWS::Lambda::EventSourceMapping',
        )
        .map((r) => JSON.stringify(r.Properties.FunctionName).match(/"(\w+LambdaFunction)"/)?.[1]),
    );
    const background = Object.entries(resourcesOfType('AWS::Lambda::Function')).filter(
      ([id]) => !httpOrStream.has(id),
    );
    // the 5 scheduled jobs, mail feedback, the photo processor and the slot sweeper
    expect(background.map(([id]) => id).sort()).toEqual(
      [
        'MailFeedbackLambdaFunction',
        'PhotosProcessLambdaFunction',
        'PhotosSweepSlotsLambdaFunction',
        'ScheduledFinishAccountDeletionsLambdaFunction',
        'ScheduledRemindHandoversLambdaFunction',
        'ScheduledSendDailyDigestsLambdaFunction',
        'ScheduledSweepOutboxLambdaFunction',
        'ScheduledUnlistStaleBooksLambdaFunction',
      ].sort(),
    );
    const configs = Object.values(resourcesOfType('AWS::Lambda::EventInvokeConfig'));
    const alarms = Object.values(resourcesOfType('AWS::CloudWatch::Alarm'));
    for (const [id, fn] of background) {
      const config = configs.find((c) => JSON.stringify(c.Properties.FunctionName).includes(`"${id}"`));
      const queue = { 'Fn::GetAtt': ['ScheduledFailureQueue', 'Arn'] };
      expect(config?.Properties.DestinationConfig.OnFailure.Destination, id).toEqual(queue);
      const role = res()[fn.Properties.Role['Fn::GetAtt'][0]];
      const statements = role?.Properties.Policies.flatMap(
        (p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement,
      );
      expect(statements, id).toContainEqual(
        expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: [queue] }),
      );
      const errors = alarms.filter(
        (a) =>
          a.Properties.MetricName === 'Errors' &&
          JSON.stringify(a.Properties.Dimensions) === JSON.stringify(fnDim(id)) &&
          JSON.stringify(a.Properties.AlarmActions) === JSON.stringify([{ Ref: 'AlarmTopic' }]),
      );
      expect(errors, id).toHaveLength(1);
    }
  });

  it("writes the HTTP API's access log to its own log group", () => {
    const settings = res().HttpApiStage?.Properties.AccessLogSettings;
    expect(settings?.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });
    expect(settings?.Format).toMatch(/\$context\.routeKey/);
    expect(res().HttpApiLogGroup?.Type).toBe('AWS::Logs::LogGroup');
  });

  it('gives the scheduled job a failure destination that the alarm watches', () => {
    const config = Object.values(resourcesOfType('AWS::Lambda::EventInvokeConfig')).find((c) =>
      JSON.stringify(c.Properties.FunctionName).includes('ScheduledUnlistStaleBooksLambdaFunction'),
    );
    expect(config?.Properties.DestinationConfig.OnFailure.Destination).toEqual({
      'Fn::GetAtt': ['ScheduledFailureQueue', 'Arn'],
    });
  });
});
