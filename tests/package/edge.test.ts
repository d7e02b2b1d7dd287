/**
 * Client identity and limits at the edge (infra/edge.yml, serverless.yml params): CloudFront sends
 * the API the stack's secret, WAF's general rule counts /api/* only, and a campus behind one NAT
 * address can sign up 300 students an hour while the caps still hold.
 */
import { describe, expect, it } from 'vitest';
import { envOf, lambdaFunctions, template } from '#tests/helpers/template.ts';

const res = () => template().Resources;
const rule = (name: string) => {
  const rules = res().WebAcl?.Properties.Rules as {
    Name: string;
    Statement: { RateBasedStatement: Record<string, unknown> };
  }[];
  const found = rules.find((r) => r.Name === name);
  expect(found, name).toBeDefined();
  return found?.Statement.RateBasedStatement as {
    Limit: number;
    AggregateKeyType: string;
    ScopeDownStatement?: unknown;
  };
};
const pathPrefix = (prefix: string) => ({
  ByteMatchStatement: {
    FieldToMatch: { UriPath: {} },
    PositionalConstraint: 'STARTS_WITH',
    SearchString: prefix,
    TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }],
  },
});

describe('the edge (packaged template)', () => {
  it("sends the API the stack's origin-verify secret from CloudFront, read at deploy time", () => {
    const origins = res().Distribution?.Properties.DistributionConfig.Origins as {
      Id: string;
      OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
    }[];
    const api = origins.find((o) => o.Id === 'api');
    expect(api?.OriginCustomHeaders).toHaveLength(1);
    expect(api?.OriginCustomHeaders?.[0]?.HeaderName).toBe('X-Origin-Verify');
    // {{resolve:secretsmanager:<the secret's ARN>:SecretString}}, the ARN being the secret's Ref
    expect(JSON.stringify(api?.OriginCustomHeaders?.[0]?.HeaderValue)).toMatch(
      /\{\{resolve:secretsmanager:\$\{OriginVerifySecret\}:SecretString\}\}/,
    );
    // Only the API origin gets it: the buckets are read through origin access control.
    expect(origins.filter((o) => o.OriginCustomHeaders).map((o) => o.Id)).toEqual(['api']);
  });

  it("scopes WAF's general rate rule to /api/* and its tight one to /api/auth/*, per client IP", () => {
    const general = rule('rate-per-ip');
    expect(general.AggregateKeyType).toBe('IP');
    expect(general.ScopeDownStatement).toEqual(pathPrefix('/api/'));
    const auth = rule('auth-rate-per-ip');
    expect(auth.AggregateKeyType).toBe('IP');
    // every auth route but the refresh of a signed-in session (a campus behind one NAT refreshes often)
    expect(auth.ScopeDownStatement).toEqual({
      AndStatement: {
        Statements: [
          pathPrefix('/api/auth/'),
          {
            NotStatement: {
              Statement: {
                ByteMatchStatement: {
                  FieldToMatch: { UriPath: {} },
                  PositionalConstraint: 'EXACTLY',
                  SearchString: '/api/auth/refresh',
                  TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }],
                },
              },
            },
          },
        ],
      },
    });
    expect(auth.Limit).toBeLessThanOrEqual(general.Limit);
  });

  it('admits 300 sign-ups an hour from one address, and the per-address and global caps still hold', () => {
    const signup = envOf(lambdaFunctions().authSignup as never);
    const perIp = Number(signup.MAIL_CAP_PER_IP_HOURLY);
    const global = Number(signup.MAIL_CAP_GLOBAL_HOURLY);
    // 300 sign-ups plus 100 resends or resets from one address in an hour
    expect(perIp).toBeGreaterThanOrEqual(400);
    expect(global).toBeGreaterThan(perIp);
    expect(global).toBeLessThanOrEqual(2000);
    // A sign-up costs about 3 requests under /api/auth/ (sign-up, confirm, login): 300 of them
    // bunched into one 5-minute window still pass WAF's tight rule.
    expect(rule('auth-rate-per-ip').Limit).toBeGreaterThanOrEqual(300 * 3);
    // ...and about 10 API requests each in all: 3,000 an hour, within the general rule per window.
    expect(rule('rate-per-ip').Limit).toBeGreaterThanOrEqual(3000 / 12);
  });
});
