/**
 * Uploads the web app's build (web/dist) to the stage's bucket and invalidates CloudFront's cache.
 *   npm run deploy:web -- --stage prod [--region us-east-1]
 * Reads the bucket and distribution from the stack's outputs (WebBucketName, DistributionId).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const option = (args: string[], name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : def;
};

function aws(args: string[]): string {
  const r = spawnSync('aws', args, { encoding: 'utf8' });
  if (r.error) throw new Error('the AWS CLI (`aws`) was not found: install it to upload the web app');
  if (r.status !== 0) throw new Error(`aws ${args.slice(0, 2).join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Returns the exit code: 0 when uploaded or when there is nothing to upload (said clearly). */
export function uploadWeb(args: string[], dist = path.join(ROOT, 'web', 'dist')): number {
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.log(
      `[deploy] web upload skipped: ${path.relative(ROOT, dist)}/index.html does not exist. Build the web app (web/), then run: npm run deploy:web -- --stage <stage>`,
    );
    return 0;
  }
  const stage = option(args, 'stage', 'dev');
  const region = option(args, 'region', 'us-east-1');
  try {
    const output = (key: string) =>
      aws([
        'cloudformation',
        'describe-stacks',
        '--region',
        region,
        '--stack-name',
        `campus-books-${stage}`,
        '--query',
        `Stacks[0].Outputs[?OutputKey=='${key}'].OutputValue`,
        '--output',
        'text',
      ]);
    const bucket = output('WebBucketName');
    const distribution = output('DistributionId');
    console.log(`[deploy] uploading ${path.relative(ROOT, dist)} to s3://${bucket} ...`);
    aws(['s3', 'sync', dist, `s3://${bucket}`, '--delete', '--region', region]);
    aws(['cloudfront', 'create-invalidation', '--distribution-id', distribution, '--paths', '/*']);
    console.log('[deploy] web app uploaded; CloudFront serves it within a few minutes.');
    return 0;
  } catch (err) {
    console.error(`[deploy] ${(err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(uploadWeb(process.argv.slice(2).filter((a) => a !== '--')));
}
