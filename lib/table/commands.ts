/**
 * The DynamoDB commands the service sends, with the names, inputs and outputs of
 * `@aws-sdk/lib-dynamodb` (the DocumentClient's: plain JavaScript values, no attribute-value
 * wrappers), for the project's own client (lib/db/dynamo.ts). Only the types come from the SDK, so
 * a function's bundle carries none of the SDK's DynamoDB code (issue 19: cold starts).
 */
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

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

/** DynamoDB's name of an operation (the X-Amz-Target suffix). */
export type Operation =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'Scan'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'TransactGetItems'
  | 'TransactWriteItems';

/** One call: the operation and its DocumentClient input; `Output` types what `send` answers. */
export abstract class Command<Input extends object, Output extends object> {
  abstract readonly operation: Operation;
  /** never set: carries the output type to `send` */
  declare readonly output?: Output;
  constructor(readonly input: Input) {}
}

/** The command class of one operation. */
export function commandOf<Input extends object, Output extends object>(operation: Operation) {
  return class extends Command<Input, Output> {
    readonly operation = operation;
  };
}

export const GetCommand = commandOf<GetCommandInput, GetCommandOutput>('GetItem');
export const PutCommand = commandOf<PutCommandInput, PutCommandOutput>('PutItem');
export const UpdateCommand = commandOf<UpdateCommandInput, UpdateCommandOutput>('UpdateItem');
export const DeleteCommand = commandOf<DeleteCommandInput, DeleteCommandOutput>('DeleteItem');
export const QueryCommand = commandOf<QueryCommandInput, QueryCommandOutput>('Query');
export const BatchGetCommand = commandOf<BatchGetCommandInput, BatchGetCommandOutput>('BatchGetItem');
export const BatchWriteCommand = commandOf<BatchWriteCommandInput, BatchWriteCommandOutput>('BatchWriteItem');
export const TransactGetCommand = commandOf<TransactGetCommandInput, TransactGetCommandOutput>(
  'TransactGetItems',
);
export const TransactWriteCommand = commandOf<TransactWriteCommandInput, TransactWriteCommandOutput>(
  'TransactWriteItems',
);

/** A command of each kind, as a type (e.g. the migration's list of writes). */
export type PutCommand = InstanceType<typeof PutCommand>;
export type UpdateCommand = InstanceType<typeof UpdateCommand>;
export type DeleteCommand = InstanceType<typeof DeleteCommand>;
