// Consumes the webhook-events queue: each message names one committed event, dispatched to every
// endpoint of its environment. Dispatch makes each delivery's first attempt itself and writes its
// row; only a failed one gets a WebhookDelivery execution for the retries. Both the row and the
// execution are idempotent, so a message delivered twice makes one logical delivery.
//
// The events of a batch are dispatched all at once (and each to all its endpoints at once), so the
// batch takes about one POST's time limit, whatever its size: the function's timeout
// (DISPATCH_WORKER_TIMEOUT_SECONDS) covers that. A message whose dispatch did not finish (malformed
// ones included) is reported back, so SQS delivers it again and, after its retries, moves it to
// the DLQ; the others are deleted, each delivery recorded or handed to its execution.
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { dispatchEvent } from '../app/webhooks';
import { EventMessage, MalformedWorkerMessage, parseQueueBody } from '../contracts/worker-messages';
import { logger } from '../platform/observability';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

/** Dispatches one message's event; false when the message must come back. */
async function dispatchRecord(record: SQSRecord): Promise<boolean> {
  try {
    const { event_id } = parseQueueBody(EventMessage, 'webhook event message', record.body);
    await dispatchEvent(runtime(), event_id);
    return true;
  } catch (err) {
    const what = err instanceof MalformedWorkerMessage ? 'malformed message; it goes to the dead-letter queue after its retries' : 'dispatch failed; the message will be retried';
    logger.error(what, { error: err as Error, message_id: record.messageId });
    return false;
  }
}

export const handler = defineWorker('webhook-dispatch', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const dispatched = await Promise.all(event.Records.map(dispatchRecord));
  return { batchItemFailures: event.Records.filter((_, i) => !dispatched[i]).map((record) => ({ itemIdentifier: record.messageId })) };
});
