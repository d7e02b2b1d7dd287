/**
 * Configuration: read once per container from environment variables, checked at start-up.
 *
 * Stages `local` (npm start) and `test` (npm test) get embedded safe defaults. Every other
 * stage reads its secrets from SSM Parameter Store (path in SSM_SECRETS_PATH) and refuses to
 * start when one is missing or too weak.
 */
import { z } from 'zod';

const EMULATED_STAGES = new Set(['local', 'test']);

/** Local-only defaults. Never used on a deployed stage. */
export const LOCAL_DEFAULTS = {
  JWT_SECRET: 'local-only-jwt-secret-0123456789abcdefghij',
  SAMPLE_BASIC_USER: 'sample',
  SAMPLE_BASIC_PASSWORD: 'sample-password',
  SAMPLE_API_KEY: 'local-sample-api-key',
} as const;

/** The browser origin allowed by default on the emulated stages (a local front end). */
export const LOCAL_CORS_ORIGIN = 'http://localhost:3000';

/** Secret names as stored under SSM_SECRETS_PATH, e.g. /campus-books/prod/jwt-secret. */
const SSM_SECRET_NAMES = {
  JWT_SECRET: 'jwt-secret',
  SAMPLE_BASIC_USER: 'sample-basic-user',
  SAMPLE_BASIC_PASSWORD: 'sample-basic-password',
  SAMPLE_API_KEY: 'sample-api-key',
} as const;

type SecretName = keyof typeof SSM_SECRET_NAMES;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const intFrom = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));
const csv = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  z.array(z.string()),
);

const schema = z.object({
  STAGE: z.preprocess(emptyToUndefined, z.string().default('local')),
  TABLE_NAME: z.preprocess(emptyToUndefined, z.string().min(3).default('campus-books-local')),
  AWS_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  DYNAMODB_ENDPOINT: optionalString,
  SES_ENDPOINT: optionalString,
  SSM_SECRETS_PATH: optionalString,
  JWT_SECRET: z
    .string()
    .refine((s) => Buffer.byteLength(s, 'utf8') >= 32, 'JWT_SECRET must be at least 32 bytes (RFC 8725 3.5)'),
  JWT_ISSUER: z.preprocess(emptyToUndefined, z.string().default('campus-books')),
  JWT_AUDIENCE: z.preprocess(emptyToUndefined, z.string().default('campus-books-api')),
  JWT_TTL_SECONDS: intFrom(3600, 60, 7 * 24 * 3600),
  SAMPLE_BASIC_USER: z.string().min(1),
  SAMPLE_BASIC_PASSWORD: z.string().min(8),
  SAMPLE_API_KEY: z.string().min(16),
  SAMPLE_CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.string().default('sample@campusbooks.local')),
  OWNER_EMAILS: csv,
  APP_URL: optionalString,
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url().default('http://localhost:8080')),
  CORS_ORIGINS: csv,
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Campus Books <no-reply@campusbooks.local>')),
  BCRYPT_COST: intFrom(10, 4, 15),
  PING_TIME_ZONE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('UTC')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-GB', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'PING_TIME_ZONE must be an IANA time zone'),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.string().default('INFO')),
  /** The photo store: its bucket, an endpoint on the emulated stages, and its public front. */
  PHOTOS_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).default('campus-books-local-photos')),
  S3_ENDPOINT: optionalString,
  PHOTOS_PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z.string().url().default('http://127.0.0.1:4569/campus-books-local-photos'),
  ),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Fetches the stage's secrets from SSM Parameter Store (deployed stages only). */
async function secretsFromSsm(
  path: string,
  wanted: SecretName[],
): Promise<Partial<Record<SecretName, string>>> {
  const { SSMClient, GetParametersCommand } = await import('@aws-sdk/client-ssm');
  const client = new SSMClient({});
  const names = wanted.map((k) => `${path.replace(/\/$/, '')}/${SSM_SECRET_NAMES[k]}`);
  const out = await client.send(new GetParametersCommand({ Names: names, WithDecryption: true }));
  const found: Partial<Record<SecretName, string>> = {};
  for (const k of wanted) {
    const p = out.Parameters?.find((x) => x.Name?.endsWith(`/${SSM_SECRET_NAMES[k]}`));
    if (p?.Value) found[k] = p.Value;
  }
  return found;
}

/** Parses an environment into a Config, applying local defaults and SSM secrets. Throws ConfigError. */
export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const raw: Record<string, string | undefined> = { ...env };
  const stage = raw.STAGE?.trim() || 'local';
  const secretNames = Object.keys(SSM_SECRET_NAMES) as SecretName[];
  if (EMULATED_STAGES.has(stage) && !raw.CORS_ORIGINS?.trim()) raw.CORS_ORIGINS = LOCAL_CORS_ORIGIN;
  const missing = secretNames.filter((k) => !raw[k]?.trim());
  if (missing.length > 0) {
    if (EMULATED_STAGES.has(stage)) {
      for (const k of missing) raw[k] = LOCAL_DEFAULTS[k];
    } else if (raw.SSM_SECRETS_PATH?.trim()) {
      Object.assign(raw, await secretsFromSsm(raw.SSM_SECRETS_PATH.trim(), missing));
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`Invalid configuration for stage "${stage}": ${problems}`);
  }
  return parsed.data;
}

/** The configuration of this container, checked once at module load (fail fast). */
export const config: Config = await loadConfig();
