// The ES256 keys that sign an application environment's Plaid-shaped webhooks
// (functions/app/plaid-webhook-keys.ts). One row per key under the application's
// partition, `PLAIDKEY#<env>#<kid>`, kept after it stops signing so that /webhook_verification_key/get
// can still describe it; and `PLAIDKEYCURRENT#<env>`, a copy of the key that signs now, so signing is
// one GetItem. Both are written in one transaction, conditioned so that two first uses create one
// key and two rotations never both win.
import { GetCommand, TransactWriteCommand, isTransactionCanceled } from '../platform/aws/dynamodb';
import type { Environment } from '../contracts/schemas';
import type { SealedSecret } from '../platform/crypto/envelope';
import type { Deps } from '../platform/runtime';
import { queryByPrefix, type Row } from './dynamo';
import { keys } from './keys';

export interface StoredPlaidKey {
  kid: string;
  /** The public key's JWK members (kty, crv, x, y). */
  publicJwk: { kty: string; crv: string; x: string; y: string };
  /** The private key (PKCS#8 PEM), sealed with envelope encryption. */
  sealedPrivateKey: SealedSecret;
  /** Unix milliseconds. */
  createdAt: number;
  /** When a rotation replaced it (it signs no more); null while it signs. */
  retiredAt: number | null;
  /** When verifiers should stop accepting it (the end of its grace after retirement); null while it signs. */
  expiresAt: number | null;
}

const fromRow = (row: Row): StoredPlaidKey => ({
  kid: row.kid,
  publicJwk: row.public_jwk,
  sealedPrivateKey: row.sealed_private_key,
  createdAt: row.created_at_ms,
  retiredAt: row.retired_at_ms ?? null,
  expiresAt: row.key_expires_at_ms ?? null,
});

// `key_expires_at_ms`, not the table's TTL attribute `expires_at`: an expired key's row stays, so its
// kid keeps answering with its expiry rather than as unknown.
const toRow = (applicationId: string, environment: Environment, key: StoredPlaidKey) => ({
  application_id: applicationId,
  environment,
  kid: key.kid,
  public_jwk: key.publicJwk,
  sealed_private_key: key.sealedPrivateKey,
  created_at_ms: key.createdAt,
  retired_at_ms: key.retiredAt,
  key_expires_at_ms: key.expiresAt,
});

/** The key that signs now, if the environment has one yet. */
export async function getCurrentPlaidKey(deps: Deps, applicationId: string, environment: Environment): Promise<StoredPlaidKey | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.plaidWebhookKeyCurrent(applicationId, environment), ConsistentRead: true }),
  );
  return res.Item ? fromRow(res.Item) : undefined;
}

/** One key by its id, current or retired. */
export async function getPlaidKey(deps: Deps, applicationId: string, environment: Environment, kid: string): Promise<StoredPlaidKey | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.plaidWebhookKey(applicationId, environment, kid) }));
  return res.Item ? fromRow(res.Item) : undefined;
}

/** Every key of the environment, oldest first. */
export async function listPlaidKeys(deps: Deps, applicationId: string, environment: Environment): Promise<StoredPlaidKey[]> {
  const { pk, skPrefix } = keys.plaidWebhookKeysOf(applicationId, environment);
  return (await queryByPrefix(deps, pk, skPrefix)).map(fromRow).sort((a, b) => a.createdAt - b.createdAt || a.kid.localeCompare(b.kid));
}

/** A transaction whose condition failed is false; any other failure is thrown. */
async function transactIf(deps: Deps, items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>): Promise<boolean> {
  try {
    await deps.ddb.send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (err) {
    const reasons = isTransactionCanceled(err) ? (err.CancellationReasons ?? []).map((r) => r.Code) : [];
    // A conflict with a concurrent transaction on the same rows is the same outcome as losing the race.
    if (reasons.includes('ConditionalCheckFailed') || reasons.includes('TransactionConflict')) return false;
    throw err;
  }
}

/** The environment's first key; false when another first use created one (read it instead). */
export async function createFirstPlaidKey(deps: Deps, applicationId: string, environment: Environment, key: StoredPlaidKey): Promise<boolean> {
  const row = toRow(applicationId, environment, key);
  return transactIf(deps, [
    { Put: { TableName: deps.config.tableName, Item: { ...keys.plaidWebhookKey(applicationId, environment, key.kid), ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: deps.config.tableName, Item: { ...keys.plaidWebhookKeyCurrent(applicationId, environment), ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ]);
}

/**
 * Makes `next` the key that signs, provided `previous` still is (false otherwise: another rotation
 * won; read again). `previous` is marked retired at `retiredAt` and expiring at `expiresAt`.
 */
export async function rotatePlaidKey(
  deps: Deps,
  applicationId: string,
  environment: Environment,
  previous: StoredPlaidKey,
  next: StoredPlaidKey,
  retiredAt: number,
  expiresAt: number,
): Promise<boolean> {
  const row = toRow(applicationId, environment, next);
  return transactIf(deps, [
    { Put: { TableName: deps.config.tableName, Item: { ...keys.plaidWebhookKey(applicationId, environment, next.kid), ...row }, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: deps.config.tableName,
        Item: { ...keys.plaidWebhookKeyCurrent(applicationId, environment), ...row },
        ConditionExpression: 'kid = :previous',
        ExpressionAttributeValues: { ':previous': previous.kid },
      },
    },
    {
      Update: {
        TableName: deps.config.tableName,
        Key: keys.plaidWebhookKey(applicationId, environment, previous.kid),
        UpdateExpression: 'SET retired_at_ms = :retired, key_expires_at_ms = :expires',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':retired': retiredAt, ':expires': expiresAt },
      },
    },
  ]);
}
