/**
 * `npm start`: the whole service on this machine, no cloud account needed.
 * DynamoDB Local (in memory; DYNAMODB_PERSIST=1 keeps data in .local-data/dynamodb), the table
 * from serverless.yml, the SES emulator, the Open Library stand-in (ISBN lookup), the S3 emulator for photos (s3rver; its uploads are
 * forwarded to the photo processor through serverless-offline's Lambda port), and serverless-offline
 * with the stream consumer and the schedules. Ctrl-C or SIGTERM stops everything.
 * `--demo` (`npm run demo`) then fills the market with demo students and books (scripts/local/demo.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoAccountsTable, demoAddress, seedDemo } from './local/demo.ts';
import { localClient, startDynamoDbLocal } from './local/dynamodb.ts';
import { startIsbnStandin } from './local/isbn-standin.ts';
import { startOffline } from './local/offline.ts';
import { assertPortFree } from './local/ports.ts';
import { missingPrerequisites } from './local/prereqs.ts';
import { stopAll } from './local/processes.ts';
import { invokeThroughOffline, startS3 } from './local/s3.ts';
import { seedLocalData } from './local/seed.ts';
import { startSes } from './local/ses.ts';
import { ensureTable } from './local/table.ts';
import { buildWeb, startWeb } from './local/web.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAGE = 'local';
const env = process.env;
const demo = process.argv.includes('--demo');
const port = (name: string, def: number): number => {
  const v = Number(env[name] ?? def);
  if (!Number.isInteger(v) || v < 1 || v > 65535)
    throw new Error(`${name} must be a port number, got "${env[name]}"`);
  return v;
};

const log = (msg: string) => console.log(`[start] ${msg}`);

/** Exits at once, naming the problem, when the machine or the configuration cannot work. */
async function preflight(): Promise<void> {
  const missing = missingPrerequisites({ root: ROOT });
  if (missing.length > 0) {
    for (const line of missing) console.error(`[start] ${line}`);
    process.exit(1);
  }
  // The functions read the same variables (serverless.yml params `local`), so check them here,
  // before anything starts, rather than on the first request (a 500 on every call).
  env.STAGE = STAGE;
  try {
    await import('#lib/config.ts');
  } catch (err) {
    console.error(`[start] ${(err as Error).message}`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  await preflight();
  const ports = {
    PORT: port('PORT', 8080),
    SES_PORT: port('SES_PORT', 8005),
    DYNAMODB_PORT: port('DYNAMODB_PORT', 8000),
    LAMBDA_PORT: port('LAMBDA_PORT', 3002),
    S3_PORT: port('S3_PORT', 4569),
    WEB_PORT: port('WEB_PORT', 3000),
    ISBN_STANDIN_PORT: port('ISBN_STANDIN_PORT', 8010),
  };
  for (const [name, value] of Object.entries(ports)) await assertPortFree(value, name);

  const persist = env.DYNAMODB_PERSIST === '1' || env.DYNAMODB_PERSIST === 'true';
  const dataDir = persist ? path.join(ROOT, '.local-data', 'dynamodb') : undefined;
  log(
    `starting DynamoDB Local on port ${ports.DYNAMODB_PORT} (${persist ? `data in ${dataDir}` : 'in memory'})...`,
  );
  const dynamo = await startDynamoDbLocal({ port: ports.DYNAMODB_PORT, dataDir });
  const tableName = `campus-books-${STAGE}`;
  const client = localClient(dynamo.endpoint);
  log(
    (await ensureTable(client, tableName))
      ? `created table ${tableName}`
      : `table ${tableName} already exists`,
  );
  if (await seedLocalData(client, tableName)) log('added the default hand-over point (campus uni.edu)');
  client.destroy();

  log(`starting the SES emulator on port ${ports.SES_PORT}...`);
  const ses = await startSes(ports.SES_PORT);

  // Photos: kept in .local-data/s3 when DynamoDB keeps its data too, else in a temporary folder.
  const photosBucket = env.PHOTOS_BUCKET ?? `campus-books-${STAGE}-photos`;
  log(`starting the S3 emulator on port ${ports.S3_PORT}...`);
  const s3 = await startS3({
    port: ports.S3_PORT,
    bucket: photosBucket,
    corsOrigins: (env.CORS_ORIGINS ?? 'http://localhost:3000').split(',').map((o) => o.trim()),
    directory: persist ? path.join(ROOT, '.local-data', 's3') : undefined,
    onUpload: invokeThroughOffline(ports.LAMBDA_PORT, `campus-books-${STAGE}-photosProcess`),
    onError: (err) => console.error(`[s3] photo processing failed: ${err.message}`),
  });

  // The ISBN lookup's book-data source: the Open Library stand-in, unless ISBN_LOOKUP_URL names another.
  log(`starting the Open Library stand-in on port ${ports.ISBN_STANDIN_PORT}...`);
  const isbn = await startIsbnStandin(ports.ISBN_STANDIN_PORT);
  const isbnLookupUrl = env.ISBN_LOOKUP_URL?.trim() || isbn.url;

  // Built into a folder of its own, not web/dist: the build carries this stack's photo origin in its
  // CSP, so a second stack (npm test's local-stack test, another checkout's ports) or a deploy's
  // build writing the same folder would break this one's photos.
  const webDir = mkdtempSync(path.join(os.tmpdir(), 'campus-books-web-'));
  log(`building the web app into ${webDir} (while the API starts)...`);
  // The app shows photos from the S3 emulator and uploads to it: its CSP must allow that origin.
  const webBuilt = buildWeb({ quiet: true, photosUrl: s3.endpoint, outDir: webDir });
  webBuilt.catch(() => undefined);
  // The e-mailed links (confirmation, reset) open the web app, unless APP_URL says otherwise.
  const appUrl = env.APP_URL?.trim() || `http://localhost:${ports.WEB_PORT}`;

  log('starting serverless offline (bundling functions, then HTTP API, stream consumer, schedule)...');
  const verbose = env.VERBOSE === '1';
  const offline = await startOffline({
    stage: STAGE,
    port: ports.PORT,
    lambdaPort: ports.LAMBDA_PORT,
    dynamodbPort: ports.DYNAMODB_PORT,
    sesPort: ports.SES_PORT,
    s3Port: ports.S3_PORT,
    // Links in e-mails and the confirmation form point at this server, whatever port it got.
    env: {
      APP_URL: appUrl,
      PUBLIC_URL: env.PUBLIC_URL?.trim() || `http://localhost:${ports.PORT}`,
      ISBN_LOOKUP_URL: isbnLookupUrl,
      // the demo's owner becomes an owner when it confirms, as OWNER_EMAILS does on any stage
      ...(demo
        ? { OWNER_EMAILS: [env.OWNER_EMAILS?.trim(), demoAddress('owner')].filter(Boolean).join(',') }
        : {}),
    },
    log: (line) => {
      if (verbose || /error|warn|offline: (GET|POST|PUT)/i.test(line)) console.log(`[offline] ${line}`);
    },
  });
  // After start-up, show the handlers' logs as they come.
  offline.child.stdout?.on('data', (b: Buffer) => process.stdout.write(b));
  offline.child.stderr?.on('data', (b: Buffer) => process.stderr.write(b));
  await webBuilt;
  const web = await startWeb({
    port: ports.WEB_PORT,
    apiUrl: offline.url,
    photosUrl: s3.endpoint,
    dir: webDir,
  });

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping...`);
    await web.stop().catch(() => undefined);
    rmSync(webDir, { recursive: true, force: true });
    await offline.stop().catch(() => undefined);
    await ses.stop().catch(() => undefined);
    await s3.stop().catch(() => undefined);
    await isbn.stop().catch(() => undefined);
    await dynamo.stop().catch(() => undefined);
    await stopAll();
    log('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  offline.child.once('exit', () => void stop('serverless offline exited'));

  const user = env.SAMPLE_BASIC_USER ?? 'sample';
  const pass = env.SAMPLE_BASIC_PASSWORD ?? 'sample-password';
  const key = env.SAMPLE_API_KEY ?? 'local-sample-api-key';
  console.log(
    [
      '',
      '  Campus Books is running (stage "local")',
      `  Web app    ${web.url}   (e-mailed links open ${appUrl})`,
      `  API        ${offline.url}   e.g. curl -u ${user}:${pass} ${offline.url}/api/ping`,
      `  SES inbox  ${ses.url}   (JSON: ${ses.url}/store)`,
      `  DynamoDB   ${dynamo.endpoint}   table ${tableName}`,
      `  ISBN data  ${isbnLookupUrl}   (${isbnLookupUrl === isbn.url ? 'Open Library stand-in' : 'ISBN_LOOKUP_URL'}; e.g. ${isbn.url}/api/books?bibkeys=ISBN:9780262033848&jscmd=data&format=json)`,
      `  Photos     ${s3.endpoint}/${photosBucket}/photos/...   (S3 emulator; files in ${s3.directory})`,
      `  Sample     user "${user}", password "${pass}", X-API-KEY "${key}"`,
      '  Stop       Ctrl-C',
      '',
    ].join('\n'),
  );
  if (demo) {
    log('filling the market with demo data (--demo)...');
    try {
      const result = await seedDemo({
        apiUrl: offline.url,
        sesUrl: ses.url,
        log: (line) => log(`demo: ${line}`),
      });
      if (result.created)
        log(`demo: ${result.bookIds.length} books listed; photos appear as the processor finishes them`);
      console.log(['', ...demoAccountsTable(), `  Log in at ${web.url}/login`, ''].join('\n'));
    } catch (err) {
      // the stack itself is up: say what failed and keep it running
      console.error(`[start] demo: failed, the market is left as it is: ${(err as Error).message}`);
    }
  }
}

main().catch(async (err: Error) => {
  console.error(`[start] ${err.message}`);
  await stopAll();
  process.exit(1);
});
