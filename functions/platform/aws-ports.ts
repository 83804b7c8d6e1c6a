// The AWS adapters of the background ports: SQS for events and refreshes, Step Functions for
// deliveries. Queue URLs and the state machine ARN come from the stack as environment variables.
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { EventMessage } from '../contracts/worker-messages';
import { tracer } from './observability';
import type { BackgroundPorts } from './ports';

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
  let sqs: SQSClient | undefined;
  let sfn: SFNClient | undefined;
  const queue = () => (sqs ??= tracer.captureAWSv3Client(new SQSClient({ region })));
  return {
    eventBus: {
      publish: async (eventId) => {
        await queue().send(new SendMessageCommand({ QueueUrl: required(env, 'FC_WEBHOOK_EVENTS_QUEUE_URL'), MessageBody: JSON.stringify({ event_id: eventId } satisfies EventMessage) }));
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        await queue().send(
          new SendMessageCommand({
            QueueUrl: required(env, 'FC_ITEM_REFRESH_QUEUE_URL'),
            MessageBody: JSON.stringify(input),
            // One message group per item: SQS FIFO serialises that item's refreshes.
            MessageGroupId: input.item_id,
            MessageDeduplicationId: `${input.item_id}-${Math.floor(Date.now() / 10_000)}`,
          }),
        );
      },
    },
    deliveries: {
      start: async (input) => {
        sfn ??= tracer.captureAWSv3Client(new SFNClient({ region }));
        try {
          await sfn.send(
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
