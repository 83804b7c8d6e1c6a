// The AWS adapters of the background ports: SQS for events and refreshes, Step Functions for
// deliveries. Queue URLs and the state machine ARN come from the stack as environment variables.
//
// Each SDK is required, and its client built, on first use only, and a function whose grants do not
// allow the call is built without the SDK at all (bundled-sdks.ts).
import type * as SfnSdk from '@aws-sdk/client-sfn';
import type * as SqsSdk from '@aws-sdk/client-sqs';
import type { EventMessage } from '../contracts/worker-messages';
import { notBundled } from './bundled-sdks';
import { tracer } from './observability';
import type { BackgroundPorts } from './ports';

/** Runs `create` once, on the first call, and returns its result from then on. */
function lazy<T>(create: () => T): () => T {
  let value: { current: T } | undefined;
  return () => (value ??= { current: create() }).current;
}

// Literal requires behind the build-time switches of bundled-sdks.ts: a function built without an
// SDK does not carry it; one built with it evaluates it at first use.
/* eslint-disable @typescript-eslint/no-require-imports */
const sqsSdk = lazy(() =>
  process.env.FC_BUNDLE_SQS === 'omit' ? notBundled('sqs') : (require('@aws-sdk/client-sqs') as typeof SqsSdk),
);
const sfnSdk = lazy(() =>
  process.env.FC_BUNDLE_SFN === 'omit' ? notBundled('sfn') : (require('@aws-sdk/client-sfn') as typeof SfnSdk),
);
/* eslint-enable @typescript-eslint/no-require-imports */

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set for this function`);
  return value;
}

/** Execution names allow letters, digits, - and _ (80 max); delivery ids are mapped onto that. */
function executionName(deliveryId: string): string {
  return deliveryId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80);
}

export function createAwsPorts(env: NodeJS.ProcessEnv, region: string): BackgroundPorts {
  const sqs = lazy(() => tracer.captureAWSv3Client(new (sqsSdk().SQSClient)({ region })));
  const sfn = lazy(() => tracer.captureAWSv3Client(new (sfnSdk().SFNClient)({ region })));
  const sendMessage = async (input: SqsSdk.SendMessageCommandInput): Promise<void> => {
    const client = sqs();
    await client.send(new (sqsSdk().SendMessageCommand)(input));
  };
  return {
    eventBus: {
      publish: async (eventId) => {
        await sendMessage({ QueueUrl: required(env, 'FC_WEBHOOK_EVENTS_QUEUE_URL'), MessageBody: JSON.stringify({ event_id: eventId } satisfies EventMessage) });
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        await sendMessage({
          QueueUrl: required(env, 'FC_ITEM_REFRESH_QUEUE_URL'),
          MessageBody: JSON.stringify(input),
          // One message group per item: SQS FIFO serialises that item's refreshes.
          MessageGroupId: input.item_id,
          MessageDeduplicationId: `${input.item_id}-${Math.floor(Date.now() / 10_000)}`,
        });
      },
    },
    deliveries: {
      start: async (input) => {
        const client = sfn();
        const { StartExecutionCommand, ExecutionAlreadyExists } = sfnSdk();
        try {
          await client.send(
            new StartExecutionCommand({
              stateMachineArn: required(env, 'FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN'),
              name: executionName(input.delivery_id),
              input: JSON.stringify(input),
            }),
          );
          return true;
        } catch (err) {
          if (err instanceof ExecutionAlreadyExists) return false;
          throw err;
        }
      },
    },
  };
}
