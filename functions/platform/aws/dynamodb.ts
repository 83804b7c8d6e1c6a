// The DynamoDB document client our repositories use: the surface of `@aws-sdk/lib-dynamodb` they
// need (the same command class names, `new XCommand(input)`, `.input`, `send(command)`, native JS
// values in and out) on top of aws-json.ts. The SDK's client stack is about 520 KB of every bundle;
// this is a few KB plus `@aws-sdk/util-dynamodb`'s marshall/unmarshall, the very functions
// lib-dynamodb translates with.
//
// Translation is lib-dynamodb's, on purpose to the letter: each command names the members that hold
// attribute values (its "key nodes", copied from lib-dynamodb), each value there is marshalled with
// `removeUndefinedValues` and top-level containers converted, and outputs are unmarshalled the same
// way. Then what the SDK's JSON serializer adds: binary values travel base64-encoded and come back
// as Uint8Array. Errors keep the SDK's shape: a ConditionalCheckFailedException's `Item` and each
// TransactionCanceledException reason's `Item` stay attribute-value maps (callers unmarshall them),
// as lib-dynamodb leaves them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
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
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { marshall, unmarshall, type marshallOptions, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import { createAwsJsonClient, SERVICES } from './aws-json';
import { isAwsError, withMiddlewares, type AwsEndpointOptions, type AwsMiddleware, type AwsOutput, type AwsServiceError } from './aws-request';

export type {
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
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
};
export type { AttributeValue };
export type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';

// Key nodes, as lib-dynamodb spells them: SELF translates the value itself, ALL_VALUES each value of
// a map, ALL_MEMBERS each member of a list, NEXT_LEVEL ('*') every entry of the level below.
type KeyNodes = null | { readonly [member: string]: KeyNodes } | readonly KeyNodes[];
const SELF = null;
const ALL_VALUES: KeyNodes = {};
const ALL_MEMBERS: KeyNodes = [];
const NEXT_LEVEL = '*';

type Translate = (value: unknown) => unknown;

function processObj(obj: unknown, translate: Translate, keyNodes: KeyNodes): unknown {
  if (obj === undefined) return undefined;
  if (keyNodes === null) return translate(obj);
  const members = Object.keys(keyNodes);
  if (members.length === 0) return processAllKeysInObj(obj, translate, SELF);
  if (members.length === 1 && members[0] === NEXT_LEVEL) {
    const below = (keyNodes as Record<string, KeyNodes>)[NEXT_LEVEL];
    const acc: Record<string, unknown> | unknown[] = Array.isArray(obj) ? [] : {};
    for (const [key, value] of Object.entries(obj ?? {})) {
      if (typeof value !== 'function') (acc as Record<string, unknown>)[key] = processObj(value, translate, below);
    }
    return acc;
  }
  return processKeysInObj(obj, translate, keyNodes as Record<string, KeyNodes>);
}

function processKeysInObj(obj: unknown, translate: Translate, keyNodes: Record<string, KeyNodes>): Record<string, unknown> {
  const source = obj as Record<string, unknown>;
  let acc: Record<string, unknown>;
  if (Array.isArray(obj)) {
    acc = obj.filter((item) => typeof item !== 'function') as unknown as Record<string, unknown>;
  } else {
    acc = {};
    for (const [key, value] of Object.entries(source)) if (typeof value !== 'function') acc[key] = value;
  }
  for (const [member, nodes] of Object.entries(keyNodes)) {
    if (typeof source[member] === 'function') continue;
    const processed = processObj(source[member], translate, nodes);
    if (processed !== undefined && typeof processed !== 'function') acc[member] = processed;
  }
  return acc;
}

function processAllKeysInObj(obj: unknown, translate: Translate, keyNodes: KeyNodes): unknown {
  if (Array.isArray(obj)) return obj.filter((item) => typeof item !== 'function').map((item) => processObj(item, translate, keyNodes));
  const acc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj as Record<string, unknown>)) {
    if (typeof value === 'function') continue;
    const processed = processObj(value, translate, keyNodes);
    if (processed !== undefined && typeof processed !== 'function') acc[key] = processed;
  }
  return acc;
}

/** Binary as the JSON protocol carries it: base64 (what the SDK's serializer does to `B` and `BS`). */
function base64Of(value: unknown): string {
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('base64');
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64');
  throw new TypeError(`cannot send ${Object.prototype.toString.call(value)} as DynamoDB binary`);
}

/** Bytes as the SDK's deserializer hands them back: a Uint8Array over the decoded buffer. */
function bytesOf(base64: unknown): Uint8Array {
  const buffer = Buffer.from(String(base64), 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

type WireValue = Record<string, unknown>;

function mapValues(map: unknown, convert: (value: WireValue) => WireValue): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries((map ?? {}) as Record<string, WireValue>)) out[key] = convert(value);
  return out;
}

/** An attribute value for the wire: its binary base64-encoded, everything else as marshall made it. */
function encodeValue(value: WireValue): WireValue {
  if ('B' in value) return { B: base64Of(value.B) };
  if ('BS' in value) return { BS: (value.BS as unknown[]).map(base64Of) };
  if ('M' in value) return { M: mapValues(value.M, encodeValue) };
  if ('L' in value) return { L: (value.L as WireValue[]).map(encodeValue) };
  return value;
}

/** An attribute value from the wire: its binary decoded to bytes. */
function decodeValue(value: WireValue): WireValue {
  if ('B' in value) return { B: bytesOf(value.B) };
  if ('BS' in value) return { BS: (value.BS as unknown[]).map(bytesOf) };
  if ('M' in value) return { M: mapValues(value.M, decodeValue) };
  if ('L' in value) return { L: (value.L as WireValue[]).map(decodeValue) };
  return value;
}

// The options the runtime's document client has always used (lib-dynamodb's defaults added).
const MARSHALL_OPTIONS: marshallOptions = { removeUndefinedValues: true, convertTopLevelContainer: true };
const UNMARSHALL_OPTIONS: unmarshallOptions = { convertWithoutMapWrapper: true };

const marshallValue: Translate = (value) => encodeValue(marshall(value, MARSHALL_OPTIONS) as unknown as WireValue);
const unmarshallValue: Translate = (value) => unmarshall(decodeValue(value as WireValue) as unknown as Record<string, AttributeValue>, UNMARSHALL_OPTIONS);

/** A command's native input in the JSON protocol's shape (exported for tests). */
export function toWireInput(command: DocumentCommand<object, unknown>): Record<string, unknown> {
  return processKeysInObj(command.input, marshallValue, command.shape.input);
}

/** An operation's JSON output as the command's native output (exported for tests). */
export function fromWireOutput(command: DocumentCommand<object, unknown>, output: Record<string, unknown>): Record<string, unknown> {
  return processKeysInObj(output, unmarshallValue, command.shape.output);
}

interface CommandShape {
  /** The DynamoDB operation (GetItem for GetCommand). */
  operation: string;
  input: Record<string, KeyNodes>;
  output: Record<string, KeyNodes>;
}

/** A command of this client: its input, and (for typing only) the output `send` resolves to. */
export abstract class DocumentCommand<Input extends object, Output> {
  /** Never set: carries the output type to `send`. */
  declare readonly outputType?: Output;

  constructor(readonly input: Input) {}

  /** What the command calls and where its attribute values are. */
  abstract get shape(): CommandShape;
}

// Each command's key nodes, from lib-dynamodb.
const EXPECTED = { [NEXT_LEVEL]: { Value: SELF, AttributeValueList: ALL_MEMBERS } };
const CONDITIONS = { [NEXT_LEVEL]: { AttributeValueList: ALL_MEMBERS } };
const WRITE_OUTPUT = { Attributes: ALL_VALUES, ItemCollectionMetrics: { ItemCollectionKey: ALL_VALUES } };
const PAGE_OUTPUT = { Items: { [NEXT_LEVEL]: ALL_VALUES }, LastEvaluatedKey: ALL_VALUES };
const WRITE_REQUESTS = { [NEXT_LEVEL]: { [NEXT_LEVEL]: { PutRequest: { Item: ALL_VALUES }, DeleteRequest: { Key: ALL_VALUES } } } };
const ITEM_COLLECTION_METRICS = { [NEXT_LEVEL]: { [NEXT_LEVEL]: { ItemCollectionKey: ALL_VALUES } } };

const SHAPES = {
  get: { operation: 'GetItem', input: { Key: ALL_VALUES }, output: { Item: ALL_VALUES } },
  put: { operation: 'PutItem', input: { Item: ALL_VALUES, Expected: EXPECTED, ExpressionAttributeValues: ALL_VALUES }, output: WRITE_OUTPUT },
  update: {
    operation: 'UpdateItem',
    input: { Key: ALL_VALUES, AttributeUpdates: { [NEXT_LEVEL]: { Value: SELF } }, Expected: EXPECTED, ExpressionAttributeValues: ALL_VALUES },
    output: WRITE_OUTPUT,
  },
  delete: { operation: 'DeleteItem', input: { Key: ALL_VALUES, Expected: EXPECTED, ExpressionAttributeValues: ALL_VALUES }, output: WRITE_OUTPUT },
  query: {
    operation: 'Query',
    input: { KeyConditions: CONDITIONS, QueryFilter: CONDITIONS, ExclusiveStartKey: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
    output: PAGE_OUTPUT,
  },
  scan: { operation: 'Scan', input: { ScanFilter: CONDITIONS, ExclusiveStartKey: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES }, output: PAGE_OUTPUT },
  batchGet: {
    operation: 'BatchGetItem',
    input: { RequestItems: { [NEXT_LEVEL]: { Keys: { [NEXT_LEVEL]: ALL_VALUES } } } },
    output: { Responses: { [NEXT_LEVEL]: { [NEXT_LEVEL]: ALL_VALUES } }, UnprocessedKeys: { [NEXT_LEVEL]: { Keys: { [NEXT_LEVEL]: ALL_VALUES } } } },
  },
  batchWrite: { operation: 'BatchWriteItem', input: { RequestItems: WRITE_REQUESTS }, output: { UnprocessedItems: WRITE_REQUESTS, ItemCollectionMetrics: ITEM_COLLECTION_METRICS } },
  transactGet: {
    operation: 'TransactGetItems',
    input: { TransactItems: { [NEXT_LEVEL]: { Get: { Key: ALL_VALUES } } } },
    output: { Responses: { [NEXT_LEVEL]: { Item: ALL_VALUES } } },
  },
  transactWrite: {
    operation: 'TransactWriteItems',
    input: {
      TransactItems: {
        [NEXT_LEVEL]: {
          ConditionCheck: { Key: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
          Put: { Item: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
          Delete: { Key: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
          Update: { Key: ALL_VALUES, ExpressionAttributeValues: ALL_VALUES },
        },
      },
    },
    output: { ItemCollectionMetrics: ITEM_COLLECTION_METRICS },
  },
} satisfies Record<string, CommandShape>;

export class GetCommand extends DocumentCommand<GetCommandInput, GetCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.get;
  }
}
export class PutCommand extends DocumentCommand<PutCommandInput, PutCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.put;
  }
}
export class UpdateCommand extends DocumentCommand<UpdateCommandInput, UpdateCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.update;
  }
}
export class DeleteCommand extends DocumentCommand<DeleteCommandInput, DeleteCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.delete;
  }
}
export class QueryCommand extends DocumentCommand<QueryCommandInput, QueryCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.query;
  }
}
export class ScanCommand extends DocumentCommand<ScanCommandInput, ScanCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.scan;
  }
}
export class BatchGetCommand extends DocumentCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.batchGet;
  }
}
export class BatchWriteCommand extends DocumentCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.batchWrite;
  }
}
export class TransactGetCommand extends DocumentCommand<TransactGetCommandInput, TransactGetCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.transactGet;
  }
}
export class TransactWriteCommand extends DocumentCommand<TransactWriteCommandInput, TransactWriteCommandOutput> {
  get shape(): CommandShape {
    return SHAPES.transactWrite;
  }
}

export interface DynamoDbDocumentClient {
  /** Runs one command: its input marshalled, its output unmarshalled; rejects with AwsServiceError. */
  send<Output>(command: DocumentCommand<object, Output>): Promise<Output>;
  /**
   * Adds a middleware around every later call (outermost first). It sees the command's native input
   * (the command's own `input` object: what it sets there is sent) and the native output, as a
   * middleware at the SDK's initialize step did; `operation` is DynamoDB's (GetItem, Query, ...).
   */
  use(middleware: AwsMiddleware): void;
  /** Nothing to release: connections belong to the process's keep-alive agent (idle ones never hold it open). */
  destroy(): void;
}

/** A DynamoDB service error whose body carried the item that failed the condition (ReturnValuesOnConditionCheckFailure). */
export type ConditionalCheckFailedError = AwsServiceError & { Item?: Record<string, AttributeValue> };

export interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: Record<string, AttributeValue>;
}

export type TransactionCanceledError = AwsServiceError & { CancellationReasons?: CancellationReason[] };

export function isConditionalCheckFailed(err: unknown): err is ConditionalCheckFailedError {
  return isAwsError(err, 'ConditionalCheckFailedException');
}

export function isTransactionCanceled(err: unknown): err is TransactionCanceledError {
  return isAwsError(err, 'TransactionCanceledException');
}

export function isTransactionConflict(err: unknown): err is AwsServiceError {
  return isAwsError(err, 'TransactionConflictException');
}

/** Error items as the SDK deserialises them: attribute-value maps, binary decoded. */
function decodeErrorItems(err: unknown): void {
  if (!(err instanceof Error) || !('$metadata' in err)) return;
  const fields = err as unknown as { Item?: unknown; CancellationReasons?: unknown };
  if (fields.Item !== null && typeof fields.Item === 'object') fields.Item = mapValues(fields.Item, decodeValue);
  if (Array.isArray(fields.CancellationReasons)) {
    fields.CancellationReasons = (fields.CancellationReasons as CancellationReason[]).map((reason) =>
      reason.Item ? { ...reason, Item: mapValues(reason.Item, decodeValue) as unknown as Record<string, AttributeValue> } : reason,
    );
  }
}

/**
 * TransactWriteItems is retried (aws-request.ts) after a 5xx, a timeout or a dropped connection, when
 * the first attempt may have committed. Its ClientRequestToken makes the retry idempotent: DynamoDB
 * answers a repeat within 10 minutes with the first attempt's outcome instead of running the
 * transaction again. The SDK adds one to every call that lacks it; so do we, once per call, so every
 * attempt carries the same token (exported for tests).
 */
export function withIdempotencyToken(operation: string, wire: Record<string, unknown>): Record<string, unknown> {
  if (operation !== 'TransactWriteItems' || typeof wire.ClientRequestToken === 'string') return wire;
  return { ...wire, ClientRequestToken: randomUUID() };
}

export function createDynamoDbDocumentClient(options: AwsEndpointOptions): DynamoDbDocumentClient {
  const client = createAwsJsonClient(SERVICES.dynamodb, options);
  const middlewares: AwsMiddleware[] = [];
  return {
    use(middleware) {
      middlewares.push(middleware);
    },
    destroy() {
      // Connections are the process's (aws-request.ts); nothing belongs to one client.
    },
    async send<Output>(command: DocumentCommand<object, Output>): Promise<Output> {
      const operation = command.shape.operation;
      const output = await withMiddlewares(middlewares, { serviceName: client.service.serviceName, operation, input: command.input }, async () => {
        try {
          const wire = await client.call<Record<string, unknown>>(operation, withIdempotencyToken(operation, toWireInput(command)));
          return { ...fromWireOutput(command, wire), $metadata: wire.$metadata } as AwsOutput<object>;
        } catch (err) {
          decodeErrorItems(err);
          throw err;
        }
      });
      return output as Output;
    },
  };
}
