// The AWS adapters of the background ports: SQS for events and refreshes, Step Functions for
// deliveries; and the stage's connector configuration from Secrets Manager. Queue URLs and the state
// machine ARN come from the stack as environment variables.
//
// Each client's module (functions/platform/aws/) is required, and its client built, on first use
// only, and a function whose grants do not allow the call is built without that module at all
// (bundled-sdks.ts).
import type { EventMessage, RefreshExecutionInput } from '../contracts/worker-messages';
import type * as SecretsManagerModule from './aws/secrets-manager';
import type * as SfnModule from './aws/sfn';
import type * as SqsModule from './aws/sqs';
import { credentialsFromEnvironment, endpointFromEnvironment, isAwsError, type AwsEndpointOptions } from './aws/aws-request';
import { notBundled } from './bundled-sdks';
import { tracer } from './observability';
import type { BackgroundPorts, ConnectorConfigSource } from './ports';

/** Runs `create` once, on the first call, and returns its result from then on. */
function lazy<T>(create: () => T): () => T {
  let value: { current: T } | undefined;
  return () => (value ??= { current: create() }).current;
}

// Literal requires behind the build-time switches of bundled-sdks.ts: a function built without a
// client does not carry its module; one built with it evaluates it at first use.
/* eslint-disable @typescript-eslint/no-require-imports */
const sqsModule = lazy(() => (process.env.FC_BUNDLE_SQS === 'omit' ? notBundled('sqs') : (require('./aws/sqs') as typeof SqsModule)));
const sfnModule = lazy(() => (process.env.FC_BUNDLE_SFN === 'omit' ? notBundled('sfn') : (require('./aws/sfn') as typeof SfnModule)));
const secretsManagerModule = lazy(() =>
  process.env.FC_BUNDLE_SECRETS_MANAGER === 'omit' ? notBundled('secretsManager') : (require('./aws/secrets-manager') as typeof SecretsManagerModule),
);
/* eslint-enable @typescript-eslint/no-require-imports */

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set for this function`);
  return value;
}

/**
 * Where a client sends its calls and as whom: the function's environment `env` first (tests and
 * benches hand the adapters a stand-in's endpoint and keys there), then the process's, as the AWS
 * SDKs read them (`AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ACCESS_KEY_ID`...). On AWS both are the same.
 */
function clientOptions(env: NodeJS.ProcessEnv, region: string, service: string): AwsEndpointOptions {
  const endpoint = endpointFromEnvironment(service, env) ?? endpointFromEnvironment(service);
  return {
    region,
    ...(endpoint ? { endpoint } : {}),
    // Unset: the process's credentials, read on every call as Lambda provides them.
    ...(env !== process.env && env.AWS_ACCESS_KEY_ID ? { credentials: credentialsFromEnvironment(env) } : {}),
  };
}

/** Execution names allow letters, digits, - and _ (80 max); delivery ids are mapped onto that. */
function executionName(deliveryId: string): string {
  return deliveryId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80);
}

export function createAwsPorts(env: NodeJS.ProcessEnv, region: string): BackgroundPorts {
  const sqs = lazy(() => tracer.traceAwsCalls(sqsModule().createSqsClient(clientOptions(env, region, 'SQS'))));
  const sfn = lazy(() => tracer.traceAwsCalls(sfnModule().createSfnClient(clientOptions(env, region, 'SFN'))));
  return {
    eventBus: {
      publish: async (eventId) => {
        await sqs().sendMessage({ QueueUrl: required(env, 'FC_WEBHOOK_EVENTS_QUEUE_URL'), MessageBody: JSON.stringify({ event_id: eventId } satisfies EventMessage) });
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        await sqs().sendMessage({ QueueUrl: required(env, 'FC_ITEM_REFRESH_QUEUE_URL'), ...refreshMessage(input) });
      },
      enqueueMany: async (inputs) => {
        const queueUrl = required(env, 'FC_ITEM_REFRESH_QUEUE_URL');
        const chunks: RefreshExecutionInput[][] = [];
        for (let i = 0; i < inputs.length; i += SQS_BATCH_MAX) chunks.push(inputs.slice(i, i + SQS_BATCH_MAX));
        const refused = await Promise.all(chunks.map((chunk) => sendRefreshBatch(sqs(), queueUrl, chunk)));
        return refused.flat();
      },
    },
    deliveries: {
      start: async (input) => {
        const stateMachineArn = required(env, 'FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN');
        const client = sfn();
        try {
          await client.startExecution({ stateMachineArn, name: executionName(input.delivery_id), input: JSON.stringify(input) });
          return true;
        } catch (err) {
          // The delivery was started before (a redelivered event): not an error, and not started twice.
          if (isAwsError(err, sfnModule().EXECUTION_ALREADY_EXISTS)) return false;
          throw err;
        }
      },
    },
  };
}

// ---------- the refresh queue's messages ----------

/** SendMessageBatch takes at most 10 entries. */
const SQS_BATCH_MAX = 10;
/** Calls per batch: the first, then retries of the entries SQS refused (Failed[]), with a short pause. */
const REFRESH_BATCH_ATTEMPTS = 3;
const REFRESH_BATCH_RETRY_PAUSE_MS = 100;

function refreshMessage(input: RefreshExecutionInput) {
  return {
    MessageBody: JSON.stringify(input),
    // One message group per item: SQS FIFO serialises that item's refreshes.
    MessageGroupId: input.item_id,
    // Fixed for the entry's retries too: a retry of an entry SQS did take after all is dropped. The
    // reason is part of it: a repair's whole-window sync is not a duplicate of a sweep's refresh.
    MessageDeduplicationId: `${input.item_id}-${input.reason}-${Math.floor(Date.now() / 10_000)}`,
  };
}

/**
 * Sends up to 10 refreshes in one SendMessageBatch and retries the entries SQS refused; resolves
 * with the inputs it still refused. An entry refused for the sender's fault (malformed) is not
 * retried: the same entry would be refused again.
 */
async function sendRefreshBatch(client: SqsModule.SqsClient, queueUrl: string, inputs: RefreshExecutionInput[]): Promise<RefreshExecutionInput[]> {
  let pending = inputs.map((input, i) => ({ input, entry: { Id: String(i), ...refreshMessage(input) } }));
  const refused: RefreshExecutionInput[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const result = await client.sendMessageBatch({ QueueUrl: queueUrl, Entries: pending.map((p) => p.entry) });
    const failed = new Map((result.Failed ?? []).map((f) => [f.Id, f]));
    refused.push(...pending.filter((p) => failed.get(p.entry.Id)?.SenderFault === true).map((p) => p.input));
    pending = pending.filter((p) => failed.has(p.entry.Id) && failed.get(p.entry.Id)?.SenderFault !== true);
    if (pending.length === 0) return refused;
    if (attempt === REFRESH_BATCH_ATTEMPTS) return [...refused, ...pending.map((p) => p.input)];
    await new Promise((resolve) => setTimeout(resolve, REFRESH_BATCH_RETRY_PAUSE_MS * attempt));
  }
}

/**
 * The stage's connector configuration: the JSON object of the Secrets Manager secret the stack
 * names (variable name -> string value) over the function's own environment. Read once per
 * container and cached; a failed read is not cached, so the next call tries again.
 */
export function createSecretsManagerConnectorConfig(secretId: string, region: string, env: NodeJS.ProcessEnv): ConnectorConfigSource {
  const client = lazy(() => tracer.traceAwsCalls(secretsManagerModule().createSecretsManagerClient(clientOptions(env, region, 'SECRETS_MANAGER'))));
  let loaded: Promise<Readonly<Record<string, string | undefined>>> | null = null;
  const read = async () => {
    const out = await client().getSecretValue({ SecretId: secretId });
    const parsed = JSON.parse(out.SecretString ?? '{}') as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the connector secret must be a JSON object of variable names to strings');
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') throw new Error(`the connector secret's ${name} must be a string`);
      values[name] = value;
    }
    return { ...env, ...values };
  };
  return {
    load() {
      loaded ??= read().catch((err: unknown) => {
        loaded = null;
        throw err;
      });
      return loaded;
    },
  };
}
