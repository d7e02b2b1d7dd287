import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#scripts/local/dynamodb.ts';
import { freePort } from '#scripts/local/ports.ts';
import { startSes } from '#scripts/local/ses.ts';

/** Integration tier: its own DynamoDB Local and SES emulator on free ports. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ port: await freePort(), quiet: true });
  const ses = await startSes(await freePort());
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesUrl', ses.url);
  return async () => {
    await ses.stop();
    await dynamo.stop();
  };
}
