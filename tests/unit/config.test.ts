import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#lib/config.ts';

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
    expect(Buffer.byteLength(c.JWT_SECRET)).toBeGreaterThanOrEqual(32);
    expect(c.BCRYPT_COST).toBe(10);
  });

  it('refuses to start a deployed stage without its secrets', async () => {
    await expect(loadConfig({ STAGE: 'prod', TABLE_NAME: 'campus-books-prod' })).rejects.toThrow(
      /JWT_SECRET/,
    );
  });

  it('refuses an unknown time zone and a bad bcrypt cost', async () => {
    await expect(loadConfig({ STAGE: 'local', PING_TIME_ZONE: 'Mars/Olympus' })).rejects.toThrow(
      /PING_TIME_ZONE/,
    );
    await expect(loadConfig({ STAGE: 'local', BCRYPT_COST: '99' })).rejects.toThrow(/BCRYPT_COST/);
  });

  it('splits OWNER_EMAILS and CORS_ORIGINS lists', async () => {
    const c = await loadConfig({
      STAGE: 'local',
      OWNER_EMAILS: ' a@uni.edu, b@uni.edu ,',
      CORS_ORIGINS: 'https://a.edu',
    });
    expect(c.OWNER_EMAILS).toEqual(['a@uni.edu', 'b@uni.edu']);
    expect(c.CORS_ORIGINS).toEqual(['https://a.edu']);
  });
});
