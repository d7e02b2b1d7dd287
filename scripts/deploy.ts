/**
 * `npm run deploy -- --stage prod`: `serverless deploy` with the given arguments, then the web
 * app's build (web/dist) uploaded to the stage's bucket and CloudFront told to drop its cache.
 * Without web/dist the API is deployed and the upload is skipped, saying so (build the web app,
 * then run `npm run deploy:web -- --stage prod`). Uses the AWS CLI for the upload.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { uploadWeb } from './deploy-web.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2).filter((a) => a !== '--');
const deploy = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'serverless'), ['deploy', ...args], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (deploy.status !== 0) process.exit(deploy.status ?? 1);
process.exit(uploadWeb(args));
