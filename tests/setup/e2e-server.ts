import type { TestProject } from 'vitest/node';
import { localClient, startDynamoDbLocal } from '#scripts/local/dynamodb.ts';
import { startIsbnStandin } from '#scripts/local/isbn-standin.ts';
import { startOffline } from '#scripts/local/offline.ts';
import { freePort, freePorts } from '#scripts/local/ports.ts';
import { invokeThroughOffline, startS3 } from '#scripts/local/s3.ts';
import { startSes } from '#scripts/local/ses.ts';
import { ensureTable } from '#scripts/local/table.ts';
import { provideEmulators } from './emulators.ts';

/** End-to-end tier: emulators plus the real HTTP server (serverless offline, stage `test`). */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ port: await freePort(), quiet: true });
  const ses = await startSes(await freePort());
  const table = 'campus-books-test';
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, table);
  client.destroy();
  // The four servers started below get their ports together, all different: the Lambda port is
  // bound only when serverless offline starts, so a freePort() taken after it could repeat it.
  const [lambdaPort, s3Port, isbnPort, apiPort] = (await freePorts(4)) as [number, number, number, number];
  // Uploads reach the photo processor the way `npm start` sends them: through the Lambda port.
  const s3 = await startS3({
    port: s3Port,
    bucket: 'campus-books-test-photos',
    // The browser tests serve the app on a free port of localhost (tests/helpers/browser.ts).
    corsOrigins: ['http://localhost:3000', 'http://localhost:*'],
    onUpload: invokeThroughOffline(lambdaPort, 'campus-books-test-photosProcess'),
    onError: (err) => console.error(`[s3] ${err.message}`),
  });
  const isbn = await startIsbnStandin(isbnPort);
  const offline = await startOffline({
    stage: 'test',
    port: apiPort,
    lambdaPort,
    dynamodbPort: Number(new URL(dynamo.endpoint).port),
    sesPort: Number(new URL(ses.url).port),
    s3Port: Number(new URL(s3.endpoint).port),
    // The links and forms the service writes point at this server, as PUBLIC_URL does when deployed.
    env: {
      // cheap password hashes (the emulated stages may go below OWASP's minimum; deployed ones may not)
      PASSWORD_HASH_MEMORY_KIB: '256',
      PASSWORD_HASH_PASSES: '1',
      MAIL_CAP_PER_IP_HOURLY: '1000000',
      MAIL_CAP_GLOBAL_HOURLY: '1000000',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
      // build each bundle once, keep no incremental context (serverless.yml, custom.esbuild)
      ESBUILD_SKIP_REBUILD: 'true',
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      ISBN_LOOKUP_URL: isbn.url,
      // A comma-separated list, as a stage's `corsOrigins` may be (tests/e2e/cors.test.ts).
      CORS_ORIGINS: 'http://localhost:3000, http://127.0.0.1:3000',
    },
    log: process.env.E2E_VERBOSE ? (line) => console.log(`[offline] ${line}`) : undefined,
  });
  project.provide('apiUrl', offline.url);
  project.provide('e2eTable', table);
  return provideEmulators(project, { dynamo, ses, s3, isbn }, [offline]);
}
