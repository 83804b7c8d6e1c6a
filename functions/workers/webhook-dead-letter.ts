// Records a webhook whose every attempt failed; the deliveries list shows it as dead_lettered.
import { deadLetter } from '../app/webhooks';
import { runtime } from '../platform/runtime';
import type { DeliveryExecutionInput } from './contracts';

export const handler = async (input: DeliveryExecutionInput): Promise<{ recorded: boolean }> => {
  await deadLetter(runtime(), input);
  return { recorded: true };
};
