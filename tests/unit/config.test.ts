import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#lib/config.ts';
import { startSecretsStub } from '#tests/helpers/secrets-stub.ts';

describe('configuration', () => {
  it('refuses to start with a JWT secret shorter than 32 bytes', async () => {
    await expect(loadConfig({ STAGE: 'local', JWT_SECRET: 'short-secret' })).rejects.toThrow(
      /JWT_SECRET must be at least 32 bytes/,
    );
  });

  it('counts the secret in bytes, not characters', async () => {
    await expect(loadConfig({ STAGE: 'local', JWT_SECRET: 'é'.repeat(16) })).resolves.toBeTruthy();
    await expect(loadConfig({ STAGE: 'local', JWT_SECRET: 'é'.repeat(15) })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });

  it('uses embedded defaults on the local and test stages', async () => {
    const c = await loadConfig({ STAGE: 'local' });
    expect(c.TABLE_NAME).toBe('campus-books-local');
    expect(c.PING_TIME_ZONE).toBe('UTC');
    expect(Buffer.byteLength(c.JWT_SECRET ?? '')).toBeGreaterThanOrEqual(32);
    expect([c.PASSWORD_HASH_MEMORY_KIB, c.PASSWORD_HASH_PASSES]).toEqual([19_456, 2]);
  });

  const deployed = {
    STAGE: 'prod',
    TABLE_NAME: 'campus-books-prod',
    PUBLIC_URL: 'https://books.example.edu',
    MAIL_FROM: 'Campus Books <no-reply@books.example.edu>',
  };

  it.each(['PUBLIC_URL', 'MAIL_FROM'])(
    'gives a deployed stage no local default for %s: it refuses to start, naming it',
    async (name) => {
      await expect(loadConfig({ ...deployed, [name]: '' })).rejects.toThrow(new RegExp(`${name}`));
      // The same value on the local stage falls back to the local default.
      await expect(loadConfig({ STAGE: 'local', [name]: '' })).resolves.toBeTruthy();
    },
  );

  it('gives a deployed stage no local secret: only those it was given, so others are absent', async () => {
    const c = await loadConfig(deployed);
    expect(c.PUBLIC_URL).toBe('https://books.example.edu');
    expect(c.JWT_SECRET).toBeUndefined();
    expect(c.SAMPLE_API_KEY).toBeUndefined();
    expect(c.CURSOR_SECRET).toBeUndefined();
    const withOwn = await loadConfig({ ...deployed, JWT_SECRET: 'x'.repeat(40) });
    expect(withOwn.JWT_SECRET).toBe('x'.repeat(40));
    expect(withOwn.SAMPLE_BASIC_PASSWORD).toBeUndefined();
  });

  it('refuses a sample API key shorter than 16 characters, naming it', async () => {
    await expect(loadConfig({ STAGE: 'local', SAMPLE_API_KEY: 'fourteen-chars' })).rejects.toThrow(
      /SAMPLE_API_KEY/,
    );
  });

  it('takes a contact address (empty: none, so MAIL_FROM is told) and refuses one that is not an address', async () => {
    expect((await loadConfig({ STAGE: 'local' })).CONTACT_EMAIL).toBeUndefined();
    expect((await loadConfig({ STAGE: 'local', CONTACT_EMAIL: '' })).CONTACT_EMAIL).toBeUndefined();
    expect((await loadConfig({ STAGE: 'local', CONTACT_EMAIL: 'books@example.edu' })).CONTACT_EMAIL).toBe(
      'books@example.edu',
    );
    await expect(
      loadConfig({ STAGE: 'local', CONTACT_EMAIL: 'Campus Books <books@example.edu>' }),
    ).rejects.toThrow(/CONTACT_EMAIL must be one e-mail address/);
  });

  it("takes Powertools Logger's levels in any case, INFO by default, and refuses a typo", async () => {
    expect((await loadConfig({ STAGE: 'local' })).LOG_LEVEL).toBe('INFO');
    expect((await loadConfig({ STAGE: 'local', LOG_LEVEL: ' debug ' })).LOG_LEVEL).toBe('DEBUG');
    expect((await loadConfig({ STAGE: 'local', LOG_LEVEL: 'SILENT' })).LOG_LEVEL).toBe('SILENT');
    await expect(loadConfig({ STAGE: 'local', LOG_LEVEL: 'VERBOSE' })).rejects.toThrow(/LOG_LEVEL/);
  });

  it('refuses an unknown time zone and password hash settings out of range', async () => {
    await expect(loadConfig({ STAGE: 'local', PING_TIME_ZONE: 'Mars/Olympus' })).rejects.toThrow(
      /PING_TIME_ZONE/,
    );
    await expect(loadConfig({ STAGE: 'local', PASSWORD_HASH_PASSES: '0' })).rejects.toThrow(
      /PASSWORD_HASH_PASSES/,
    );
    await expect(loadConfig({ STAGE: 'local', PASSWORD_HASH_MEMORY_KIB: '4' })).rejects.toThrow(
      /PASSWORD_HASH_MEMORY_KIB/,
    );
  });

  it('lets only the emulated stages hash passwords below OWASP minimums (Argon2id)', async () => {
    const cheap = { PASSWORD_HASH_MEMORY_KIB: '256', PASSWORD_HASH_PASSES: '1' };
    await expect(loadConfig({ STAGE: 'test', ...cheap })).resolves.toMatchObject({
      PASSWORD_HASH_MEMORY_KIB: 256,
    });
    await expect(loadConfig({ ...deployed, ...cheap })).rejects.toThrow(/OWASP minimum/);
    // 12 MiB needs 3 passes; 19 MiB needs 2
    await expect(
      loadConfig({ ...deployed, PASSWORD_HASH_MEMORY_KIB: '12288', PASSWORD_HASH_PASSES: '2' }),
    ).rejects.toThrow(/OWASP minimum/);
    await expect(
      loadConfig({ ...deployed, PASSWORD_HASH_MEMORY_KIB: '12288', PASSWORD_HASH_PASSES: '3' }),
    ).resolves.toMatchObject({ PASSWORD_HASH_PASSES: 3 });
    await expect(loadConfig(deployed)).resolves.toMatchObject({
      PASSWORD_HASH_MEMORY_KIB: 19_456,
      PASSWORD_HASH_PASSES: 2,
    });
  });

  it('splits the OWNER_EMAILS list', async () => {
    const c = await loadConfig({ STAGE: 'local', OWNER_EMAILS: ' a@uni.edu, b@uni.edu ,' });
    expect(c.OWNER_EMAILS).toEqual(['a@uni.edu', 'b@uni.edu']);
  });

  describe('on a deployed stage, the secrets it is given ids for', () => {
    const ids = { JWT_SECRET_ID: 'prod/jwt', CURSOR_SECRET_ID: 'prod/cursor' };
    const stored = { 'prod/jwt': 'j'.repeat(48), 'prod/cursor': 'c'.repeat(48) };
    const credentials = {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
    };

    it('are read from Secrets Manager, one signed GetSecretValue each, and only those', async () => {
      const stub = await startSecretsStub(stored, 'eu-west-1');
      try {
        const c = await loadConfig({
          ...deployed,
          ...ids,
          ...credentials,
          AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.url,
        });
        expect(c.JWT_SECRET).toBe(stored['prod/jwt']);
        expect(c.CURSOR_SECRET).toBe(stored['prod/cursor']);
        expect(c.SAMPLE_API_KEY).toBeUndefined();
        expect(stub.calls.map((call) => call.secretId).sort()).toEqual(['prod/cursor', 'prod/jwt']);
        // the stub refuses anything but a SigV4 GetSecretValue for secretsmanager in the region
        expect(stub.calls.every((call) => call.authorization.includes('/eu-west-1/secretsmanager/'))).toBe(
          true,
        );
      } finally {
        await stub.close();
      }
    });

    it('are retried when Secrets Manager throttles, as the SDK retried them', async () => {
      const stub = await startSecretsStub(stored, 'eu-west-1');
      stub.throttleFirst = 1;
      try {
        const c = await loadConfig({
          ...deployed,
          JWT_SECRET_ID: 'prod/jwt',
          ...credentials,
          AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.url,
        });
        expect(c.JWT_SECRET).toBe(stored['prod/jwt']);
        expect(stub.calls).toHaveLength(2);
      } finally {
        await stub.close();
      }
    });

    it("stop the start-up when one is missing, naming the service's refusal", async () => {
      const stub = await startSecretsStub(stored, 'eu-west-1');
      try {
        await expect(
          loadConfig({
            ...deployed,
            JWT_SECRET_ID: 'prod/gone',
            ...credentials,
            AWS_ENDPOINT_URL_SECRETS_MANAGER: stub.url,
          }),
        ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
      } finally {
        await stub.close();
      }
    });

    it('need a region to be read', async () => {
      await expect(loadConfig({ ...deployed, JWT_SECRET_ID: 'prod/jwt', AWS_REGION: '' })).rejects.toThrow(
        /AWS_REGION/,
      );
    });
  });
});
