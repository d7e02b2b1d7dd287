import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envOf, lambdaFunctions } from '#tests/helpers/template.ts';

const run = promisify(execFile);

describe('stage configuration (serverless.yml params)', () => {
  it('gives the dev stage its own complete values: nothing local, no secret in the environment', () => {
    const fns = Object.entries(lambdaFunctions());
    expect(fns.length).toBeGreaterThan(40);
    for (const [name, fn] of fns) {
      const env = envOf(fn);
      expect(env.STAGE, name).toBe('dev');
      expect(env.PUBLIC_URL, name).toBe('https://dev.campusbooks.example.edu');
      expect(env.APP_URL, name).toBe('https://dev.campusbooks.example.edu');
      // API Gateway answers CORS (tests/package/operations.test.ts); functions get the origin list
      // only to check the Origin of the refresh cookie's routes (lib/accounts/sessions.ts).
      expect(env.CORS_ORIGINS, name).toBe('https://dev.campusbooks.example.edu');
      expect(env.MAIL_FROM, name).toBe('Campus Books <no-reply@dev.campusbooks.example.edu>');
      expect(env.DYNAMODB_ENDPOINT ?? '', name).toBe('');
      expect(env.SES_ENDPOINT ?? '', name).toBe('');
      for (const [k, v] of Object.entries(env)) {
        // (a value may be a CloudFormation function, e.g. PHOTOS_BUCKET's Fn::Sub)
        expect(JSON.stringify(v), `${name} ${k}`).not.toMatch(
          /localhost|127\.0\.0\.1|local-only|campusbooks\.local/,
        );
      }
      for (const k of ['JWT_SECRET', 'CURSOR_SECRET', 'SAMPLE_BASIC_PASSWORD', 'SAMPLE_API_KEY']) {
        expect(env[k] ?? '', `${name} ${k}`).toBe('');
      }
    }
  });

  it('refuses to package prod without its domain, certificate and alarm address, naming each', async () => {
    const bin = path.resolve('node_modules', '.bin', 'serverless');
    const failed = await run(bin, ['package', '--stage', 'prod', '--package', '.serverless-prod-refused'], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' },
      timeout: 300_000,
    }).then(
      () => null,
      (err: { code?: number; stdout?: string; stderr?: string }) => err,
    );
    expect(failed, 'serverless package --stage prod succeeded').not.toBeNull();
    const out = `${failed?.stdout ?? ''}${failed?.stderr ?? ''}`;
    expect(out).toContain('Stage "prod" cannot be packaged');
    expect(out).toContain('params.prod.domain is missing');
    expect(out).toContain('params.prod.certificateArn is missing');
    expect(out).toContain('params.prod.alarmEmail is missing');
  });
});
