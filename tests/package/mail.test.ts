import { describe, expect, it } from 'vitest';
import { envOf, lambdaFunctions, resourcesOfType, template } from '#tests/helpers/template.ts';

describe('e-mail that arrives (packaged template)', () => {
  it("makes the stage's domain an SES identity signed with DKIM, sending through the configuration set", () => {
    const ids = Object.values(resourcesOfType('AWS::SES::EmailIdentity'));
    expect(ids).toHaveLength(1);
    expect(ids[0]?.Properties).toMatchObject({
      EmailIdentity: 'dev.campusbooks.example.edu',
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
      DkimAttributes: { SigningEnabled: true },
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: 'MailConfigurationSet' } },
    });
    expect(template().Resources.MailConfigurationSet?.Properties.Name).toBe('campus-books-dev');
    for (const [name, fn] of Object.entries(lambdaFunctions())) {
      expect(envOf(fn).MAIL_CONFIGURATION_SET, name).toBe('campus-books-dev');
    }
  });

  it('publishes bounces and complaints to a topic that the feedback handler is subscribed to', () => {
    const dest = template().Resources.MailFeedbackDestination?.Properties.EventDestination;
    expect(dest.MatchingEventTypes.sort()).toEqual(['bounce', 'complaint']);
    expect(dest.SnsDestination).toEqual({ TopicARN: { Ref: 'MailEventsTopic' } });
    const subs = Object.values(resourcesOfType('AWS::SNS::Subscription'));
    expect(subs).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({
          TopicArn: { Ref: 'MailEventsTopic' },
          Protocol: 'lambda',
          Endpoint: { 'Fn::GetAtt': ['MailFeedbackLambdaFunction', 'Arn'] },
        }),
      }),
    );
    const policy = template().Resources.MailEventsTopicPolicy?.Properties.PolicyDocument.Statement[0];
    expect(policy).toMatchObject({ Principal: { Service: 'ses.amazonaws.com' }, Action: 'sns:Publish' });
  });

  it("covers the sandbox test's recipient: an address at the stage's own verified domain", () => {
    // In the SES sandbox SES authorizes the send against the recipient's identity too. The grant
    // names the domain identity (and the configuration set) and nothing else, so the sandbox test
    // of docs/deploy.md mails an address at that domain: the same identity, verified by DKIM.
    const grants = Object.entries(resourcesOfType('AWS::IAM::Role')).flatMap(([id, r]) =>
      (r.Properties.Policies ?? []).flatMap(
        (p: { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } }) =>
          p.PolicyDocument.Statement.filter((st) => JSON.stringify(st.Action).includes('ses:SendEmail')).map(
            (st) => [id, st.Resource] as const,
          ),
      ),
    );
    expect(grants.map(([id]) => id).sort()).toEqual(['OutboxConsumerRole', 'ScheduledDigestRole']);
    const arnTail = (r: unknown) =>
      JSON.stringify(r)
        .match(/:(identity|configuration-set)\/([^"]+)"/)
        ?.slice(1, 3);
    for (const [, resources] of grants) {
      expect((resources as unknown[]).map(arnTail)).toEqual([
        ['identity', 'dev.campusbooks.example.edu'],
        ['configuration-set', 'campus-books-dev'],
      ]);
    }
    const sender = envOf(lambdaFunctions().outboxConsumer as never).MAIL_FROM;
    expect(sender).toBe('Campus Books <no-reply@dev.campusbooks.example.edu>');
  });
});
