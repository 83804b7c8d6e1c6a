// Consumes the webhook-events queue and starts one WebhookDelivery execution per event.
// Placeholder: the webhooks issue fills it in (StartExecution, named by event id for idempotency).
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

export const handler = async (_event: SQSEvent): Promise<SQSBatchResponse> => ({ batchItemFailures: [] });
