// Consumes the webhook-events queue: each message names one committed event, dispatched to every
// endpoint of its environment (one delivery row and one WebhookDelivery execution per endpoint,
// both idempotent, so a message delivered twice makes one logical delivery).
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dispatchEvent } from '../app/webhooks';
import { logger } from '../platform/observability';
import { runtime } from '../platform/runtime';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { event_id } = JSON.parse(record.body) as { event_id: string };
      await dispatchEvent(runtime(), event_id);
    } catch (err) {
      logger.error('dispatch failed; the message will be retried', { error: err as Error, message_id: record.messageId });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
