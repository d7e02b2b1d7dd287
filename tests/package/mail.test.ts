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
});
