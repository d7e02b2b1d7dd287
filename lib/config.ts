/**
 * Configuration: read once per container from environment variables, checked at start-up.
 *
 * Stages `local` (npm start) and `test` (npm test) get embedded safe defaults. Every other stage
 * gets its plain settings from serverless.yml `params` (no defaults here: a missing PUBLIC_URL or
 * MAIL_FROM is an error) and reads ONLY the secrets its function is given an id
 * for (`<NAME>_SECRET_ID`, a Secrets Manager secret) once per container; see docs/deploy.md.
 */
import { createHmac } from 'node:crypto';
import { DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS } from '#lib/aws/client-options.ts';
import { readSecrets } from '#lib/aws/secrets.ts';
import * as z from '#lib/zod.ts';

const EMULATED_STAGES = new Set(['local', 'test']);

/** Local-only defaults. Never used on a deployed stage. */
export const LOCAL_DEFAULTS = {
  JWT_SECRET: 'local-only-jwt-secret-0123456789abcdefghij',
  CURSOR_SECRET: 'local-only-cursor-secret-0123456789abcdefgh',
  SAMPLE_BASIC_USER: 'sample',
  SAMPLE_BASIC_PASSWORD: 'sample-password',
  SAMPLE_API_KEY: 'local-sample-api-key',
} as const;

/** Plain settings that only the emulated stages may leave unset, or that they set otherwise. */
const LOCAL_SETTINGS = {
  PUBLIC_URL: 'http://localhost:8080',
  MAIL_FROM: 'Campus Books <no-reply@campusbooks.local>',
  // DynamoDB Local runs transactions one at a time, on a machine shared with the tests' own work:
  // a call may wait seconds there that it never waits on AWS.
  DYNAMODB_REQUEST_TIMEOUT_MS: '5000',
  /** the Open Library stand-in of `npm start` (scripts/local/isbn-standin.ts); tests set their own port */
  ISBN_LOOKUP_URL: 'http://127.0.0.1:8010',
} as const;

/** The secrets. A deployed function gets `<NAME>_SECRET_ID` only for those it needs. */
export const SECRET_NAMES = [
  'JWT_SECRET',
  'CURSOR_SECRET',
  'SAMPLE_BASIC_PASSWORD',
  'SAMPLE_API_KEY',
  // CloudFront's origin-verify header value (lib/http/client-address.ts); none on local and test.
  'ORIGIN_VERIFY_SECRET',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/**
 * The variable that names a secret's Secrets Manager id, as serverless.yml sets it: `JWT_SECRET_ID`
 * for JWT_SECRET (not `JWT_SECRET_SECRET_ID`), `SAMPLE_API_KEY_SECRET_ID` for SAMPLE_API_KEY.
 */
export const secretIdVariable = (name: SecretName): string => `${name.replace(/_SECRET$/, '')}_SECRET_ID`;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/**
 * Blank is unset. One instance for every variable (a schema is immutable, so sharing it is safe):
 * this check runs at every cold start, and each schema built or `.check(...)` copied costs import
 * time (bench/README.md, "What is in the gap").
 */
const unset = z.transform(emptyToUndefined);
const text = z.string();
/** unset or blank: the default; else the text */
const textOr = (def: string) => z.pipe(unset, z._default(text, def));
const optionalString = z.pipe(unset, z.optional(text));
const intFrom = (def: number, min: number, max: number) =>
  z.pipe(unset, z._default(z.coerce.number().check(z.int(), z.gte(min), z.lte(max)), def));
/** `true`/`1`/`on` or `false`/`0`/`off` (any case); unset or empty: the default. */
const flag = (def: boolean) =>
  z.pipe(
    z.transform((v: unknown) => {
      const value = emptyToUndefined(v);
      return typeof value === 'string' ? value.trim().toLowerCase() : value;
    }),
    z.pipe(
      z._default(z.enum(['true', '1', 'on', 'false', '0', 'off']), def ? 'true' : 'false'),
      z.transform((v: 'true' | '1' | 'on' | 'false' | '0' | 'off') => ['true', '1', 'on'].includes(v)),
    ),
  );
const csv = z.pipe(
  z.transform((v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  ),
  z.array(text),
);

const schema = z.object({
  STAGE: textOr('local'),
  TABLE_NAME: z.pipe(unset, z._default(z.string().check(z.minLength(3)), 'campus-books-local')),
  AWS_REGION: textOr('us-east-1'),
  DYNAMODB_ENDPOINT: optionalString,
  /** each DynamoDB attempt's time limit, connecting included (lib/table/client.ts) */
  DYNAMODB_REQUEST_TIMEOUT_MS: intFrom(DEPLOYED_DYNAMODB_REQUEST_TIMEOUT_MS, 100, 10_000),
  SES_ENDPOINT: optionalString,
  ORIGIN_VERIFY_SECRET: optionalString,
  JWT_SECRET: z.optional(
    z
      .string()
      .check(
        z.refine(
          (s) => Buffer.byteLength(s, 'utf8') >= 32,
          'JWT_SECRET must be at least 32 bytes (RFC 8725 3.5)',
        ),
      ),
  ),
  CURSOR_SECRET: z.optional(
    z
      .string()
      .check(z.refine((s) => Buffer.byteLength(s, 'utf8') >= 32, 'CURSOR_SECRET must be at least 32 bytes')),
  ),
  JWT_ISSUER: textOr('campus-books'),
  JWT_AUDIENCE: textOr('campus-books-api'),
  JWT_TTL_SECONDS: intFrom(3600, 60, 7 * 24 * 3600),
  SAMPLE_BASIC_USER: z.pipe(
    unset,
    z._default(z.string().check(z.minLength(1)), LOCAL_DEFAULTS.SAMPLE_BASIC_USER),
  ),
  SAMPLE_BASIC_PASSWORD: z.optional(z.string().check(z.minLength(8))),
  SAMPLE_API_KEY: z.optional(z.string().check(z.minLength(16))),
  SAMPLE_CONTACT_EMAIL: textOr('sample@campusbooks.local'),
  OWNER_EMAILS: csv,
  /** Campus domains whose mailboxes ignore dots in the local part (lib/values/mailbox.ts). */
  GMAIL_STYLE_DOMAINS: csv,
  APP_URL: optionalString,
  PUBLIC_URL: z.string().check(z.url()),
  MAIL_FROM: z.string().check(z.minLength(3)),
  /** the address e-mails tell people to write to (lib/mail/links.ts); empty: MAIL_FROM's own */
  CONTACT_EMAIL: z.pipe(
    unset,
    z.optional(z.email('CONTACT_EMAIL must be one e-mail address, such as books@example.edu.')),
  ),
  MAIL_CONFIGURATION_SET: optionalString,
  /** Argon2id's memory (KiB) and passes for password hashes (lib/accounts/passwords.ts). */
  PASSWORD_HASH_MEMORY_KIB: intFrom(19_456, 8, 1_048_576),
  PASSWORD_HASH_PASSES: intFrom(2, 1, 10),
  /** sign-up, resend and password-reset requests per source IP and hour (beyond: 429) */
  MAIL_CAP_PER_IP_HOURLY: intFrom(400, 1, 1_000_000),
  /** those requests from everyone together per hour (beyond: 202 and no e-mail, logged) */
  MAIL_CAP_GLOBAL_HOURLY: intFrom(2000, 1, 10_000_000),
  PING_TIME_ZONE: z.pipe(
    unset,
    z._default(z.string(), 'UTC').check(
      z.refine((tz) => {
        // 'UTC' needs no check; any other zone loads ICU's zone data (tens of ms of a cold start)
        if (tz === 'UTC') return true;
        try {
          new Intl.DateTimeFormat('en-GB', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'PING_TIME_ZONE must be an IANA time zone'),
    ),
  ),
  /** Powertools Logger's levels, in any case (lib/logger.ts); a typo fails at start-up. */
  LOG_LEVEL: z.pipe(
    z.transform((v: unknown) => {
      const value = emptyToUndefined(v);
      return typeof value === 'string' ? value.trim().toUpperCase() : value;
    }),
    z._default(z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT']), 'INFO'),
  ),
  /** The photo store: its bucket, an endpoint on the emulated stages, and its public front. */
  PHOTOS_BUCKET: z.pipe(unset, z._default(z.string().check(z.minLength(3)), 'campus-books-local-photos')),
  S3_ENDPOINT: optionalString,
  /**
   * Base URL of the book-data source of GET /api/books/lookupIsbn (Open Library's Books API:
   * `<base>/api/books?bibkeys=ISBN:<isbn>&jscmd=data&format=json`); the stand-in locally.
   */
  ISBN_LOOKUP_URL: z.pipe(
    unset,
    z._default(
      z.string().check(
        z.url(),
        z.refine((u) => /^https?:\/\//.test(u), 'ISBN_LOOKUP_URL must be an http(s) URL'),
      ),
      'https://openlibrary.org',
    ),
  ),
  /** sliding lifetime of a login's refresh token (lib/accounts/sessions.ts): each refresh restarts it */
  REFRESH_TTL_DAYS: intFrom(30, 1, 365),
  /** the stuck-purchase job reminds buyer, seller and admins of a purchase this many days old without an agreed hand-over */
  HANDOVER_REMIND_DAYS: intFrom(3, 1, 60),
  /** ... and cancels it after this many days (or 2 days after an agreed slot that is later) */
  HANDOVER_CANCEL_DAYS: intFrom(7, 1, 90),
  /**
   * Admins and owners need a session that passed a second factor (TOTP) for every route that needs
   * their role (lib/http/index.ts): on in prod's params, off by default (lib/accounts/totp.ts).
   */
  REQUIRE_ADMIN_MFA: flag(false),
  /** browser origins allowed by CORS; a cookie route refuses a request whose Origin is another */
  CORS_ORIGINS: z.pipe(
    z.transform((v: unknown) => (emptyToUndefined(v) === undefined ? 'http://localhost:3000' : v)),
    csv,
  ),
  PHOTOS_PUBLIC_URL: z.pipe(
    unset,
    z._default(z.string().check(z.url()), 'http://127.0.0.1:4569/campus-books-local-photos'),
  ),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Fetches the named secrets from Secrets Manager in parallel (deployed stages only), with the SDK's
 * Secrets Manager client (lib/aws/secrets.ts; imported by name, so a bundle carries only its one
 * command, but built only here). Its endpoint and credentials come
 * from `env` (the environment being checked): `AWS_ENDPOINT_URL_SECRETS_MANAGER` (the SDK's name for
 * it) points it elsewhere, e.g. at the benchmark's stub, unless `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`
 * is set, as deployed stages do; credentials are the environment's (what Lambda gives a function),
 * else the SDK's own chain.
 */
async function secretsFromStore(
  ids: Partial<Record<SecretName, string>>,
  env: Record<string, string | undefined>,
): Promise<Partial<Record<SecretName, string>>> {
  const region = env.AWS_REGION?.trim();
  if (!region) throw new ConfigError('AWS_REGION is needed to read the secrets');
  const endpoint =
    env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === 'true'
      ? undefined
      : env.AWS_ENDPOINT_URL_SECRETS_MANAGER?.trim();
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const values = await readSecrets(ids, {
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN } }
      : {}),
  });
  return Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string' && v !== ''));
}

/** Parses an environment into a Config, applying local defaults and stored secrets. Throws ConfigError. */
export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const raw: Record<string, string | undefined> = { ...env };
  const stage = raw.STAGE?.trim() || 'local';
  const blank = (k: string) => !raw[k]?.trim();
  if (EMULATED_STAGES.has(stage)) {
    for (const [k, v] of Object.entries({ ...LOCAL_SETTINGS, ...LOCAL_DEFAULTS })) if (blank(k)) raw[k] = v;
  } else {
    const ids: Partial<Record<SecretName, string>> = {};
    for (const k of SECRET_NAMES) {
      const id = raw[secretIdVariable(k)]?.trim();
      if (id && blank(k)) ids[k] = id;
    }
    if (Object.keys(ids).length > 0) Object.assign(raw, await secretsFromStore(ids, raw));
    for (const k of Object.keys(ids) as SecretName[]) {
      if (blank(k))
        throw new ConfigError(`Invalid configuration for stage "${stage}": ${k}: not found in ${ids[k]}`);
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`Invalid configuration for stage "${stage}": ${problems}`);
  }
  if (!EMULATED_STAGES.has(stage) && !meetsPasswordHashFloor(parsed.data)) {
    throw new ConfigError(
      `Invalid configuration for stage "${stage}": PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_PASSES are below every OWASP minimum (${PASSWORD_HASH_FLOORS.map(([m, t]) => `${m} KiB x ${t}`).join(', ')})`,
    );
  }
  return parsed.data;
}

/**
 * OWASP's password storage cheat sheet: Argon2id configurations of equal strength (memory in KiB,
 * passes). A deployed stage must meet one of them; the emulated ones may go lower (tests do).
 */
export const PASSWORD_HASH_FLOORS: ReadonlyArray<readonly [number, number]> = [
  [47_104, 1],
  [19_456, 2],
  [12_288, 3],
  [9_216, 4],
  [7_168, 5],
];

const meetsPasswordHashFloor = (c: Pick<Config, 'PASSWORD_HASH_MEMORY_KIB' | 'PASSWORD_HASH_PASSES'>) =>
  PASSWORD_HASH_FLOORS.some(([m, t]) => c.PASSWORD_HASH_MEMORY_KIB >= m && c.PASSWORD_HASH_PASSES >= t);

/** The configuration of this container, checked once at module load (fail fast). */
export const config: Config = await loadConfig();

/** Whether this stage runs on the emulators (`local`, `test`): plain-HTTP cookies are allowed there. */
export const isEmulatedStage = (stage: string = config.STAGE): boolean => EMULATED_STAGES.has(stage);

/**
 * A secret this function was given. Functions get only the secrets they need (serverless.yml), so
 * asking for another one is a deployment mistake: it fails loudly instead of using a default.
 */
export function secret(name: SecretName): string {
  const value = config[name];
  if (value === undefined)
    throw new ConfigError(`${name} is not configured for this function (${secretIdVariable(name)})`);
  return value;
}

const derivedKeys = new Map<string, Buffer>();
/**
 * A key of its own for one purpose (`label`, e.g. 'campus-books refresh-token key v1'), derived
 * from JWT_SECRET by HMAC-SHA256 on first use: never the signing key itself, and only the functions
 * that use the purpose need the secret.
 */
export function derivedKey(label: string): Buffer {
  let key = derivedKeys.get(label);
  if (!key) {
    key = createHmac('sha256', secret('JWT_SECRET')).update(label).digest();
    derivedKeys.set(label, key);
  }
  return key;
}
