/**
 * Nothing expensive at module load (issue 19): loading the modules every function imports builds
 * no AWS SDK client; the DynamoDB client is built on first use, once per container. The SDK classes
 * are wrapped only to count constructions; every call still goes to the real SDK.
 */
import { describe, expect, it, vi } from 'vitest';

const built = vi.hoisted(() => ({ dynamodb: 0, ses: 0, s3: 0 }));

vi.mock('@aws-sdk/client-dynamodb', async (importOriginal) => {
  const real = await importOriginal<typeof import('@aws-sdk/client-dynamodb')>();
  class DynamoDBClient extends real.DynamoDBClient {
    constructor(...args: ConstructorParameters<typeof real.DynamoDBClient>) {
      super(...args);
      built.dynamodb += 1;
    }
  }
  return { ...real, DynamoDBClient };
});

vi.mock('@aws-sdk/client-sesv2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@aws-sdk/client-sesv2')>();
  class SESv2Client extends real.SESv2Client {
    constructor(...args: ConstructorParameters<typeof real.SESv2Client>) {
      super(...args);
      built.ses += 1;
    }
  }
  return { ...real, SESv2Client };
});

vi.mock('@aws-sdk/client-s3', async (importOriginal) => {
  const real = await importOriginal<typeof import('@aws-sdk/client-s3')>();
  class S3Client extends real.S3Client {
    constructor(...args: ConstructorParameters<typeof real.S3Client>) {
      super(...args);
      built.s3 += 1;
    }
  }
  return { ...real, S3Client };
});

describe('module load', () => {
  it('builds no SDK client when the data, mail, photo store and metrics modules load', async () => {
    await import('#lib/db/client.ts');
    await import('#lib/mail/send.ts');
    await import('#lib/photos/store.ts');
    await import('#lib/metrics.ts');
    expect(built).toEqual({ dynamodb: 0, ses: 0, s3: 0 });
  });

  it('builds the DynamoDB client on first use, and only once', async () => {
    const { db } = await import('#lib/db/client.ts');
    expect(typeof db.send).toBe('function');
    expect(db.middlewareStack).toBe(db.middlewareStack);
    expect(built.dynamodb).toBe(1);
  });
});
