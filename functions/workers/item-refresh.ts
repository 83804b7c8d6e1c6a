// Refreshes one item from its connector. Fed by the item-refresh FIFO queue (one message group per
// item, so refreshes of one item never overlap) and by the ItemRefresh state machine. A malformed
// message throws: the queue retries it and then moves it to its DLQ; an execution fails.
//
// A refresh that meets another ingestion's lease (IngestionBusyError) throws as well, on purpose:
// SQS delivers the message again after the queue's visibility timeout (12 min), by when a lease
// left by a crashed writer (INGESTION_LEASE_MS, 1 min) has expired; a FIFO queue cannot delay a
// single message, and waiting inside the Lambda would bill the wait. The local queue retries the
// same error itself (functions/platform/local/local-ports.ts).
import type { SQSEvent } from 'aws-lambda';
import { REFRESH_HOOKS } from '../app/derived-products';
import { refreshItem } from '../app/lifecycle';
import { parseQueueBody, parseWorkerMessage, RefreshExecutionInput } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

const KIND = 'item refresh input';

const isQueueEvent = (input: unknown): input is SQSEvent => typeof input === 'object' && input !== null && 'Records' in input;

export const handler = defineWorker('item-refresh', async (input: unknown) => {
  // Every job is parsed before any runs, so a batch never half-runs because of a bad message.
  const jobs = isQueueEvent(input) ? input.Records.map((r) => parseQueueBody(RefreshExecutionInput, KIND, r.body)) : [parseWorkerMessage(RefreshExecutionInput, KIND, input)];
  const results = [];
  for (const job of jobs) results.push(await refreshItem(runtime(), job, REFRESH_HOOKS));
  return results.length === 1 ? results[0] : results;
});
