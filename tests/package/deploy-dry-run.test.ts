/**
 * `npm run deploy -- --stage <stage> --dry-run` (scripts/deploy.ts) on the packaged templates: every
 * step and every value of a deployment, and not one call to AWS.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);

describe('npm run deploy -- --dry-run (packaged dev stage)', () => {
  let dir: string;
  let lines: string[];
  const calls = () => path.join(dir, 'aws-calls');
  beforeAll(async () => {
    // An `aws` first on the PATH that records any call and fails it: the dry run must make none.
    dir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-dry-run-'));
    const aws = path.join(dir, 'aws');
    writeFileSync(aws, `#!/bin/sh\necho "$@" >> '${calls()}'\nexit 1\n`);
    chmodSync(aws, 0o755);
    const { stdout } = await run(
      path.resolve('node_modules', '.bin', 'tsx'),
      [
        'scripts/deploy.ts',
        '--',
        '--stage',
        'dev',
        '--dry-run',
        '--packaged',
        path.dirname(inject('templatePath')),
      ],
      { env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}`, AWS_PROFILE: '' } },
    );
    lines = stdout.trim().split('\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('calls no AWS service', () => {
    expect(existsSync(calls()) ? readFileSync(calls(), 'utf8') : '').toBe('');
  });

  it('names the six steps in order', () => {
    const steps = lines.filter((l) => l.startsWith('[deploy] ') && /^\[deploy\] \d\/6 /.test(l));
    expect(steps.map((l) => l.slice('[deploy] '.length, '[deploy] '.length + 3))).toEqual([
      '1/6',
      '2/6',
      '3/6',
      '4/6',
      '5/6',
      '6/6',
    ]);
    expect(lines).toContain('    $ serverless deploy --stage dev --region us-east-1');
    expect(lines).toContain(
      '    $ aws cloudformation describe-stacks --region us-east-1 --stack-name campus-books-dev --output json',
    );
  });

  it("prints the web build's values: the photo bucket's upload origin, the API on the same origin", () => {
    expect(lines).toContain(
      '    PhotosUploadOrigin=https://campus-books-dev-photos-<account id>.s3.us-east-1.amazonaws.com',
    );
    expect(lines).toContain(
      "    VITE_PHOTOS_URL=https://campus-books-dev-photos-<account id>.s3.us-east-1.amazonaws.com (the photo bucket's upload origin, in the CSP's connect-src)",
    );
    expect(lines).toContain(
      '    VITE_API_URL= (empty: the API is https://dev.campusbooks.example.edu/api, the same origin)',
    );
  });

  it('uploads hashed assets first and index.html last, no-cache, then invalidates', () => {
    const commands = lines.filter(
      (l) => l.startsWith('    $ aws s3') || l.startsWith('    $ aws cloudfront'),
    );
    expect(commands).toEqual([
      "    $ aws s3 sync web/dist/assets s3://<WebBucket>/assets --region us-east-1 --cache-control 'public, max-age=31536000, immutable'",
      "    $ aws s3 sync web/dist s3://<WebBucket> --region us-east-1 --exclude 'assets/*' --exclude index.html --cache-control no-cache",
      '    $ aws s3 cp web/dist/index.html s3://<WebBucket>/index.html --region us-east-1 --cache-control no-cache',
      "    $ aws cloudfront create-invalidation --distribution-id <Distribution> --paths '/*'",
    ]);
  });

  it("ends with the site's URL and the next step", () => {
    expect(lines).toContain(
      '    The site: https://dev.campusbooks.example.edu (CloudFront serves the new files within a few minutes)',
    );
    expect(lines.at(-1)).toMatch(
      /^ {4}Next: .*point dev\.campusbooks\.example\.edu at <Distribution\.DomainName>.*"First owner"\.$/,
    );
  });
});
