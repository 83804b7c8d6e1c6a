// Consumes the webhook-events queue: each message names one committed event, dispatched to every
// endpoint of its environment (one delivery row and one WebhookDelivery execution per endpoint,
// both idempotent, so a message delivered twice makes one logical delivery). A message that fails,
// malformed ones included, is reported back so SQS retries it and then moves it to the DLQ.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dispatchEvent } from '../app/webhooks';
import { EventMessage, MalformedWorkerMessage, parseQueueBody } from '../contracts/worker-messages';
import { logger } from '../platform/observability';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('webhook-dispatch', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { event_id } = parseQueueBody(EventMessage, 'webhook event message', record.body);
      await dispatchEvent(runtime(), event_id);
    } catch (err) {
      const what = err instanceof MalformedWorkerMessage ? 'malformed message; it goes to the dead-letter queue after its retries' : 'dispatch failed; the message will be retried';
      logger.error(what, { error: err as Error, message_id: record.messageId });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
