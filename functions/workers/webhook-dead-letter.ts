// Records a webhook whose every attempt failed; the deliveries list shows it as dead_lettered.
import { deadLetter } from '../app/webhooks';
import { DeadLetterInput, parseWorkerMessage } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('webhook-dead-letter', async (input: unknown): Promise<{ recorded: boolean }> => {
  await deadLetter(runtime(), parseWorkerMessage(DeadLetterInput, 'dead-letter input', input));
  return { recorded: true };
});
