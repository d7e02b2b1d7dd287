/**
 * The project's SigV4 signer (lib/aws/sigv4.ts) against the AWS SDK's own (@smithy/signature-v4):
 * for the same request, credentials and time, the same Authorization header, with and without a
 * session token, across a day boundary (a new signing key) and with a non-ASCII body. The SDK's
 * signer is given node:crypto's SHA-256 and HMAC as its hash (what @smithy/hash-node wraps).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SourceData } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { amzDate, type Credentials, signPost } from '#lib/aws/sigv4.ts';

const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret ? createHmac('sha256', bytes(this.secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

const HOST = 'dynamodb.eu-west-1.amazonaws.com';

async function sdkAuthorization(credentials: Credentials, body: string, now: Date, target: string) {
  const signer = new SignatureV4({
    credentials,
    region: 'eu-west-1',
    service: 'dynamodb',
    sha256: NodeSha256,
    // DynamoDB does not ask for the x-amz-content-sha256 header (S3 does); neither signer sends it
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: HOST,
      path: '/',
      query: {},
      headers: { host: HOST, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': target },
      body,
    },
    { signingDate: now },
  );
  return signed.headers.authorization;
}

const cases: Array<{ name: string; credentials: Credentials; body: string; now: string; target: string }> = [
  {
    name: 'long-term credentials',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    body: JSON.stringify({ TableName: 't', Key: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } }),
    now: '2026-11-23T12:00:00.000Z',
    target: 'DynamoDB_20120810.GetItem',
  },
  {
    name: 'a role session (token signed too), the next day',
    credentials: {
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: 'secret/with+chars',
      sessionToken: 'FwoGZX//token==',
    },
    body: JSON.stringify({ TableName: 't', Item: { title: { S: 'Éléments d’algèbre — 2ᵉ éd.' } } }),
    now: '2026-11-24T00:00:01.999Z',
    target: 'DynamoDB_20120810.PutItem',
  },
];

const signed = (c: (typeof cases)[number], body = c.body) =>
  signPost({
    credentials: c.credentials,
    region: 'eu-west-1',
    service: 'dynamodb',
    host: HOST,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': c.target },
    body,
    now: new Date(c.now),
  });

describe('SigV4', () => {
  for (const c of cases) {
    it(`signs as the AWS SDK does: ${c.name}`, async () => {
      const ours = signed(c);
      expect(ours.authorization).toBe(
        await sdkAuthorization(c.credentials, c.body, new Date(c.now), c.target),
      );
      expect(ours['x-amz-date']).toBe(amzDate(new Date(c.now)));
      expect(ours['x-amz-security-token']).toBe(c.credentials.sessionToken);
    });
  }

  it('changes the signature when the body changes by one character', () => {
    const c = cases[0] as (typeof cases)[number];
    expect(signed(c, '{"a":1}').authorization).not.toBe(signed(c, '{"a":2}').authorization);
  });

  it('formats the request time as AWS wants it', () => {
    expect(amzDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z');
  });
});
