// Refreshes one item from its connector. Fed by the item-refresh FIFO queue (one message group per
// item, so refreshes of one item never overlap) and by the ItemRefresh state machine.
import type { SQSEvent } from 'aws-lambda';
import { refreshItem } from '../app/lifecycle';
import { runtime } from '../platform/runtime';
import type { RefreshExecutionInput } from './contracts';

export const handler = async (input: SQSEvent | RefreshExecutionInput) => {
  const jobs: RefreshExecutionInput[] = 'Records' in input ? input.Records.map((r) => JSON.parse(r.body)) : [input];
  const results = [];
  for (const job of jobs) results.push(await refreshItem(runtime(), job));
  return results.length === 1 ? results[0] : results;
};
