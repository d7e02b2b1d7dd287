/**
 * A stand-in for Secrets Manager's GetSecretValue on a free local port: the configuration's
 * deployed path (lib/config.ts) reads its secrets from it through AWS_ENDPOINT_URL_SECRETS_MANAGER,
 * in the tests and in the benchmark's cold init. It checks what it can of each call (the operation,
 * the JSON protocol version, a SigV4 Authorization for Secrets Manager in the region) and answers
 * as the service does: the secret's string, or ResourceNotFoundException; `throttleFirst` answers
 * that many calls with ThrottlingException first.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SecretsStub {
  url: string;
  /** every call: the secret asked for and its Authorization header */
  calls: Array<{ secretId: string; authorization: string; target: string; contentType: string }>;
  throttleFirst: number;
  close: () => Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export async function startSecretsStub(
  secrets: Record<string, string>,
  region = 'us-east-1',
): Promise<SecretsStub> {
  const stub: Omit<SecretsStub, 'url' | 'close'> = { calls: [], throttleFirst: 0 };
  const scope = new RegExp(
    `^AWS4-HMAC-SHA256 Credential=[^/]+/\\d{8}/${region}/secretsmanager/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`,
  );
  const server = createServer(async (req, res) => {
    const { SecretId } = JSON.parse(await body(req)) as { SecretId: string };
    const call = {
      secretId: SecretId,
      authorization: String(req.headers.authorization ?? ''),
      target: String(req.headers['x-amz-target'] ?? ''),
      contentType: String(req.headers['content-type'] ?? ''),
    };
    stub.calls.push(call);
    const answer = (status: number, json: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(json));
    };
    if (
      call.target !== 'secretsmanager.GetSecretValue' ||
      call.contentType !== 'application/x-amz-json-1.1' ||
      !scope.test(call.authorization)
    )
      return answer(400, { __type: 'InvalidSignatureException', message: 'bad request' });
    if (stub.throttleFirst > 0) {
      stub.throttleFirst--;
      return answer(400, { __type: 'ThrottlingException', message: 'Rate exceeded' });
    }
    const value = secrets[SecretId];
    if (value === undefined)
      return answer(400, {
        __type: 'ResourceNotFoundException',
        message: "Secrets Manager can't find the specified secret.",
      });
    return answer(200, {
      ARN: `arn:aws:secretsmanager:${region}:000000000000:secret:${SecretId}`,
      Name: SecretId,
      SecretString: value,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
