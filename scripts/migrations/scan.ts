/**
 * The walk every migration makes: a Scan of the table a page at a time, on a plain client (the
 * service's refuses Scans), handing each page's items to `each` and reporting progress after it.
 * Maintenance only; request code never Scans.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, dynamoClient, TABLE } from '#lib/table/client.ts';

export async function scanPages<T>(
  filter: Omit<ScanCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  pageSize: number,
  each: (items: T[]) => Promise<void>,
  progress: () => void,
): Promise<void> {
  const client = documentClient(dynamoClient());
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const page = await client.send(
        new ScanCommand({
          ...filter,
          TableName: TABLE,
          Limit: pageSize,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      await each((page.Items ?? []) as T[]);
      start = page.LastEvaluatedKey;
      progress();
    } while (start);
  } finally {
    client.destroy();
  }
}
