/**
 * The DynamoDB commands the service sends: `@aws-sdk/lib-dynamodb`'s (the DocumentClient's, plain
 * JavaScript values in and out), named in one place. No Scan: request code reads by key or index
 * (the service's client refuses it too, lib/table/client.ts).
 */
import * as sdk from '@aws-sdk/lib-dynamodb';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  NativeAttributeValue,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
export {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

/**
 * Each command by DynamoDB's name of its operation (the name the meter and the benchmark's recorded
 * calls carry): how a recorded call is sent again.
 */
export const COMMANDS_BY_OPERATION = {
  BatchGetItem: sdk.BatchGetCommand,
  BatchWriteItem: sdk.BatchWriteCommand,
  DeleteItem: sdk.DeleteCommand,
  GetItem: sdk.GetCommand,
  PutItem: sdk.PutCommand,
  Query: sdk.QueryCommand,
  TransactGetItems: sdk.TransactGetCommand,
  TransactWriteItems: sdk.TransactWriteCommand,
  UpdateItem: sdk.UpdateCommand,
} as const;
