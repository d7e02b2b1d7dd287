import { describe, expect, it } from 'vitest';
import { SECRET_NAMES, secretIdVariable } from '#lib/config.ts';
import { envOf, lambdaFunctions, type Template, template } from '#tests/helpers/template.ts';

const LOGS = ['logs:CreateLogStream', 'logs:PutLogEvents'];
const KEY_READ = ['kms:Decrypt', 'kms:DescribeKey'];
const KEY_WRITE = [...KEY_READ, 'kms:Encrypt', 'kms:GenerateDataKey'];
const READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', ...KEY_READ];
const WRITE = [
  ...READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  ...KEY_WRITE,
];
const SECRET = 'secretsmanager:GetSecretValue';
const MAIL = 'ses:SendEmail';
/** A background function's failure destination (infra/async-failures.cjs). */
const FAILURES = 'sqs:SendMessage';
const STREAM = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];

/** Secret resources and the environment variable that names each for a function. */
const SECRET_ENV: Record<string, string> = {
  JwtSecret: 'JWT_SECRET_ID',
  CursorSecret: 'CURSOR_SECRET_ID',
  SampleBasicPasswordSecret: 'SAMPLE_BASIC_PASSWORD_SECRET_ID',
  SampleApiKeySecret: 'SAMPLE_API_KEY_SECRET_ID',
  OriginVerifySecret: 'ORIGIN_VERIFY_SECRET_ID',
};
/** Every HTTP function's, through its role's managed policy (infra/origin-verify.cjs): checked apart. */
const ORIGIN_VERIFY_ID = 'ORIGIN_VERIFY_SECRET_ID';

interface Group {
  functions: string[];
  actions: string[];
  secrets: string[];
}

/** What each group may do: written out here, independent of infra/iam.yml. */
const GROUPS: Record<string, Group> = {
  SampleRole: {
    functions: ['samplePing', 'sampleTest'],
    actions: [...LOGS, SECRET],
    secrets: ['SampleBasicPasswordSecret', 'SampleApiKeySecret'],
  },
  DocsRole: { functions: ['docsOpenapi'], actions: LOGS, secrets: [] },
  PublicListRole: {
    functions: ['booksGetBooksNoToken'],
    actions: [...LOGS, ...READ],
    secrets: [],
  },
  PublicReadRole: {
    functions: ['booksSearchPublic'],
    actions: [...LOGS, ...READ, SECRET],
    secrets: ['CursorSecret'],
  },
  ReadRole: {
    functions: [
      'booksGetUsersPosts',
      'booksGetBook',
      'userGetOrders',
      'userGetOrder',
      'booksGetAllBooks',
      'booksSearch',
      'booksCourseRequests',
      'booksGetUserMatches',
      'userGetRequests',
      'userGetNotifications',
      'userGetCartItems',
      'userGetPurchasedBooks',
      'userGetSoldBooks',
      'userGetUserStatistics',
      'userGetUserData',
      'dashboardPermissionLevel',
      'dashboardGetStatistics',
      'dashboardGetUsers',
      'dashboardFindUsers',
      'dashboardGetBooksWithStatus',
      'dashboardGetOrders',
      'dashboardGetAuditLog',
      'dashboardGetReports',
      'dashboardGetMessageReports',
      'userGetConversations',
      'userGetConversation',
      'userGetEmailPreferences',
      'userGetSavedBooks',
      'userExportData',
      'userGetHandoverPoints',
      'dashboardGetHandoverPoints',
      'dashboardGetHandovers',
    ],
    actions: [...LOGS, ...READ, SECRET],
    secrets: ['JwtSecret', 'CursorSecret'],
  },
  WriteRole: {
    functions: [
      'booksPostBook',
      'booksUpdateBook',
      'booksDeleteBook',
      'booksReactivateBook',
      'booksRemovePhoto',
      'booksCheckoutCart',
      'booksRequestBook',
      'userAddToCart',
      'userRemoveFromCart',
      'userClearCart',
      'userSaveBook',
      'userUnsaveBook',
      'userDeleteRequest',
      'userMarkNotificationsRead',
      'dashboardConfirmBook',
      'dashboardSetBookPaid',
      'dashboardCancelPurchase',
      'dashboardMakeAdmin',
      'dashboardRevokeAdmin',
      'booksReportBook',
      'dashboardResolveReport',
      'dashboardResolveMessageReport',
      'dashboardSuspendUser',
      'dashboardReinstateUser',
      'dashboardDeactivateBooks',
      'userProposeHandover',
      'userAnswerHandover',
      'dashboardPutHandoverPoint',
      'dashboardRemoveHandoverPoint',
      'userUpdateEmailPreferences',
      'userUnsubscribe',
      'userUnsubscribePage',
      'userAskSeller',
      'userMessageBuyer',
      'userSendMessage',
      'userMarkConversationRead',
      'userBlockUser',
      'userUnblockUser',
      'userReportMessage',
    ],
    actions: [...LOGS, ...WRITE, SECRET],
    secrets: ['JwtSecret'],
  },
  WriteCursorRole: {
    functions: ['dashboardGetConversation'],
    actions: [...LOGS, ...WRITE, SECRET],
    secrets: ['JwtSecret', 'CursorSecret'],
  },
  AuthRole: {
    functions: [
      'authLogin',
      'authConfirm',
      'authConfirmLink',
      'authPasswordReset',
      'authUpdatePassword',
      'authUpdateProfile',
      'authDeleteAccount',
      'authRefresh',
      'authLogout',
      'authLogoutEverywhere',
      'authEnrollTotp',
      'authConfirmTotp',
      'authDisableTotp',
    ],
    actions: [...LOGS, ...WRITE, SECRET],
    secrets: ['JwtSecret'],
  },
  AuthMailRole: {
    functions: ['authSignup', 'authResendConfirmation', 'authPasswordResetRequest'],
    actions: [...LOGS, ...WRITE],
    secrets: [],
  },
  StreamConsumerRole: {
    functions: ['streamsConsumer'],
    actions: [...LOGS, ...WRITE, ...STREAM, 'sqs:SendMessage', 's3:ListBucket', 's3:DeleteObject'],
    secrets: [],
  },
  OutboxConsumerRole: {
    functions: ['outboxConsumer'],
    actions: [...LOGS, ...WRITE, ...STREAM, 'sqs:SendMessage', MAIL, SECRET],
    secrets: ['JwtSecret'],
  },
  MailFeedbackRole: {
    functions: ['mailFeedback'],
    actions: [...LOGS, 'dynamodb:PutItem', ...KEY_WRITE, FAILURES],
    secrets: [],
  },
  PhotoUploadRole: {
    functions: ['booksAddPhoto'],
    actions: [...LOGS, ...WRITE, SECRET, 's3:PutObject'],
    secrets: ['JwtSecret'],
  },
  PhotoProcessRole: {
    functions: ['photosProcess'],
    actions: [...LOGS, ...WRITE, 's3:GetObject', 's3:PutObject', 's3:DeleteObject', FAILURES],
    secrets: [],
  },
  PhotoSweepRole: {
    functions: ['photosSweepSlots'],
    actions: [...LOGS, ...WRITE, 's3:DeleteObject', FAILURES],
    secrets: [],
  },
  IsbnLookupRole: {
    functions: ['booksLookupIsbn'],
    actions: [...LOGS, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', ...KEY_WRITE, SECRET],
    secrets: ['JwtSecret'],
  },
  ScheduledRole: {
    functions: ['scheduledFinishAccountDeletions', 'scheduledSweepOutbox'],
    actions: [...LOGS, ...WRITE, FAILURES],
    secrets: [],
  },
  ScheduledUnlistRole: {
    functions: ['scheduledUnlistStaleBooks', 'scheduledRemindHandovers'],
    actions: [...LOGS, ...WRITE, 'sqs:SendMessage'],
    secrets: [],
  },
  ScheduledDigestRole: {
    functions: ['scheduledSendDailyDigests'],
    actions: [...LOGS, ...WRITE, MAIL, SECRET, FAILURES],
    secrets: ['JwtSecret'],
  },
};

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

function statementsOf(t: Template, roleId: string): Statement[] {
  const role = t.Resources[roleId];
  if (!role) return [];
  return (role.Properties.Policies ?? []).flatMap(
    (p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement,
  );
}

/** Everything in the template that breaks the groups above, one line each. */
function violations(t: Template): string[] {
  const out: string[] = [];
  const fns = Object.entries(t.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
  const expectedRole = new Map(
    Object.entries(GROUPS).flatMap(([role, g]) => g.functions.map((f) => [f, role] as const)),
  );
  for (const [id, fn] of fns) {
    const name = id.replace(/LambdaFunction$/, '').replace(/^./, (c) => c.toLowerCase());
    const role = fn.Properties.Role?.['Fn::GetAtt']?.[0];
    const want = expectedRole.get(name);
    if (!want) out.push(`${name}: in no group (add it to a group in this test and a role in infra/iam.yml)`);
    else if (role !== want) out.push(`${name}: runs as ${JSON.stringify(role)}, its group is ${want}`);
    if (!want) continue;
    const ids = Object.keys(fn.Properties.Environment?.Variables ?? {}).filter(
      (k) => k.endsWith('_SECRET_ID') && k !== ORIGIN_VERIFY_ID,
    );
    const wantIds = GROUPS[want]?.secrets.map((s) => SECRET_ENV[s]) ?? [];
    if (ids.sort().join() !== [...wantIds].sort().join())
      out.push(
        `${name}: is given secrets ${ids.join(',') || 'none'}, its group allows ${wantIds.join(',') || 'none'}`,
      );
  }
  for (const [roleId, g] of Object.entries(GROUPS)) {
    const statements = statementsOf(t, roleId);
    if (statements.length === 0) out.push(`${roleId}: missing`);
    for (const s of statements) {
      if (s.Effect !== 'Allow') continue;
      for (const a of list(s.Action)) {
        if (!g.actions.includes(a)) out.push(`${roleId}: allows ${a}, which its group does not`);
        if (a === SECRET) {
          for (const r of list(s.Resource) as { Ref?: string }[]) {
            if (!r.Ref || !g.secrets.includes(r.Ref))
              out.push(`${roleId}: may read secret ${JSON.stringify(r)}, its group may not`);
          }
        }
      }
      for (const r of list(s.Resource)) if (r === '*') out.push(`${roleId}: a statement on Resource "*"`);
    }
  }
  const otherRoles = Object.entries(t.Resources)
    .filter(([id, r]) => r.Type === 'AWS::IAM::Role' && !(id in GROUPS))
    .map(([id]) => id);
  for (const id of otherRoles) {
    const used = fns.some(([, fn]) => fn.Properties.Role?.['Fn::GetAtt']?.[0] === id);
    if (used) out.push(`${id}: a role outside the groups runs a function`);
  }
  return out;
}

describe('least privilege per function group (packaged template)', () => {
  it('runs every function as its group role, with only the actions and secrets of its group', () => {
    expect(Object.keys(lambdaFunctions()).length).toBe(
      Object.values(GROUPS).reduce((n, g) => n + g.functions.length, 0),
    );
    expect(violations(template())).toEqual([]);
  });

  it('names each secret with the variable lib/config.ts reads its id from', () => {
    expect(SECRET_NAMES.map(secretIdVariable).sort()).toEqual(Object.values(SECRET_ENV).sort());
  });

  it('has no shared default role', () => {
    expect(template().Resources.IamRoleLambdaExecution).toBeUndefined();
  });

  it('fails when a function gains an action or a secret its group does not allow', () => {
    const t = structuredClone(template());
    const add = (role: string, st: Statement) =>
      t.Resources[role]?.Properties.Policies[0].PolicyDocument.Statement.push(st);
    add('ReadRole', { Effect: 'Allow', Action: MAIL, Resource: ['arn:aws:ses:x'] });
    add('PublicReadRole', { Effect: 'Allow', Action: SECRET, Resource: [{ Ref: 'JwtSecret' }] });
    const fn = t.Resources.DocsOpenapiLambdaFunction;
    if (fn) fn.Properties.Role = { 'Fn::GetAtt': ['WriteRole', 'Arn'] };
    expect(violations(t)).toEqual([
      'docsOpenapi: runs as "WriteRole", its group is DocsRole',
      'PublicReadRole: may read secret {"Ref":"JwtSecret"}, its group may not',
      'ReadRole: allows ses:SendEmail, which its group does not',
    ]);
  });

  it('lets the ISBN lookup touch only its own cache and rate-limit items (and read sign-in and price-hint items)', () => {
    const table = statementsOf(template(), 'IsbnLookupRole').filter((s) =>
      list(s.Action).some((a) => a.startsWith('dynamodb:')),
    ) as (Statement & { Condition?: Record<string, Record<string, unknown>> })[];
    const leadingKeys = (s: (typeof table)[number]) =>
      s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    expect(table.map((s) => [list(s.Action).sort(), leadingKeys(s)])).toEqual([
      [['dynamodb:GetItem'], ['USER#*', 'ISBNLOOKUP#*', 'THROTTLE#isbn-lookup#*', 'SALEPRICES#*']],
      [
        ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
        ['ISBNLOOKUP#*', 'THROTTLE#isbn-lookup#*'],
      ],
    ]);
    // the table itself, no index
    for (const s of table) expect(JSON.stringify(s.Resource)).not.toContain('/index/');
  });

  it('limits the public routes to the listing and the search: named indexes and their key prefixes (dynamodb:LeadingKeys)', () => {
    // Which of these each function really reads: tests/integration/books/public-keys.test.ts.
    const where = (r: unknown) => {
      const s = JSON.stringify(r);
      const index = /\/index\/([^"]+)"/.exec(s)?.[1];
      return index ?? (s.includes('"Table","Arn"') ? 'table' : s);
    };
    const dynamo = (role: string) =>
      (
        statementsOf(template(), role) as (Statement & {
          Condition?: Record<string, Record<string, unknown>>;
        })[]
      )
        .filter((s) => list(s.Action).some((a) => a.startsWith('dynamodb:')))
        .map((s) => [
          list(s.Action).sort(),
          list(s.Resource).map(where),
          s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
        ]);
    expect(dynamo('PublicListRole')).toEqual([
      [['dynamodb:Query'], ['gsi1', 'gsi1keys', 'gsi4', 'gsi4keys'], ['BOOKS#S0#*', 'CAMPUS#*#S0#*']],
    ]);
    expect(dynamo('PublicReadRole')).toEqual([
      [['dynamodb:Query'], ['table'], ['SEARCH#*']],
      [['dynamodb:Query'], ['gsi4'], ['SEARCHP#*']],
      [['dynamodb:BatchGetItem'], ['table'], ['TYPO#*']],
    ]);
  });

  it('lets only the two functions that send call SES and only the auth-checking routes read the JWT secret', () => {
    const fns = lambdaFunctions();
    const mailers = Object.entries(GROUPS)
      .filter(([, g]) => g.actions.includes(MAIL))
      .flatMap(([, g]) => g.functions)
      .sort();
    // The only bundles with SES in them (lib/outbox/outbox.ts, lib/preferences/digest.ts); the others
    // queue their e-mail in the outbox.
    expect(mailers).toEqual(['outboxConsumer', 'scheduledSendDailyDigests']);
    for (const name of ['docsOpenapi', 'booksGetBooksNoToken', 'booksSearchPublic', 'samplePing']) {
      expect(envOf(fns[name] as never).JWT_SECRET_ID, name).toBeUndefined();
    }
    expect(envOf(fns.samplePing as never).SAMPLE_API_KEY_SECRET_ID).toBe('campus-books/dev/sample-api-key');
  });
});

describe("CloudFront's origin-verify secret (packaged template)", () => {
  // The functions API Gateway may invoke (each has its `...LambdaPermissionHttpApi`).
  const httpFunctions = () => {
    const invoked = new Set(
      Object.values(template().Resources)
        .filter(
          (r) =>
            r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === 'apigateway.amazonaws.com',
        )
        .map((r) => r.Properties.FunctionName?.['Fn::GetAtt']?.[0]),
    );
    return Object.entries(lambdaFunctions()).filter(([name]) =>
      invoked.has(`${name.charAt(0).toUpperCase()}${name.slice(1)}LambdaFunction`),
    );
  };
  const managed = (roleId: string): unknown[] =>
    template().Resources[roleId]?.Properties.ManagedPolicyArns ?? [];

  it('is named to every HTTP function, whose role may read it through one policy that reads nothing else', () => {
    const http = httpFunctions();
    expect(http.length).toBeGreaterThan(40);
    for (const [name, fn] of http) {
      expect(envOf(fn)[ORIGIN_VERIFY_ID], name).toBe('campus-books/dev/origin-verify');
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      expect(managed(role), `${name}'s role ${role}`).toContainEqual({ Ref: 'OriginVerifyReadPolicy' });
    }
    const policy = template().Resources.OriginVerifyReadPolicy;
    expect(policy?.Type).toBe('AWS::IAM::ManagedPolicy');
    expect(policy?.Properties.PolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Action: SECRET, Resource: { Ref: 'OriginVerifySecret' } },
    ]);
    const secret = template().Resources.OriginVerifySecret;
    expect(secret?.Properties.Name).toBe('campus-books/dev/origin-verify');
    expect(secret?.DeletionPolicy).toBe('Retain');
  });

  it('is not given to the background functions, nor their roles', () => {
    const http = new Set(httpFunctions().map(([name]) => name));
    const background = Object.entries(lambdaFunctions()).filter(([name]) => !http.has(name));
    expect(background.map(([n]) => n)).toEqual(
      expect.arrayContaining(['streamsConsumer', 'scheduledSendDailyDigests']),
    );
    for (const [name, fn] of background) {
      expect(envOf(fn)[ORIGIN_VERIFY_ID], name).toBeUndefined();
      expect(managed(fn.Properties.Role['Fn::GetAtt'][0]), name).not.toContainEqual({
        Ref: 'OriginVerifyReadPolicy',
      });
    }
  });
});
