/**
 * AWS Signature Version 4 for a JSON-protocol POST to a service's root path (DynamoDB's wire
 * protocol), on node:crypto alone (issue 19: the SDK's signer and its middleware stack were most
 * of a cold first call). The signing key is derived once per day, region and service.
 * Reference: the AWS General Reference, "Create a signed AWS API request".
 */
import { createHash, createHmac } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignInput {
  credentials: Credentials;
  region: string;
  service: string;
  host: string;
  /** headers to sign besides host, x-amz-date and x-amz-security-token (names in lower case) */
  headers: Record<string, string>;
  body: string;
  now: Date;
}

const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** '20261123T120000Z' */
export const amzDate = (now: Date): string =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

let cachedKey: { scope: string; secret: string; key: Buffer } | undefined;

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const scope = `${day}/${region}/${service}`;
  if (cachedKey?.scope === scope && cachedKey.secret === secret) return cachedKey.key;
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  cachedKey = { scope, secret, key };
  return key;
}

/**
 * The headers of a signed `POST /` with `body`: the input's headers plus host, x-amz-date,
 * x-amz-security-token (with temporary credentials) and authorization.
 */
export function signPost(input: SignInput): Record<string, string> {
  const { credentials, region, service, now } = input;
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = { ...input.headers, host: input.host, 'x-amz-date': date };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names
    .map((n) => `${n}:${String(lower[n]).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256(input.body)].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n');
  const signature = hmac(signingKey(credentials.secretAccessKey, day, region, service), toSign).toString(
    'hex',
  );
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
