// POST /v1/sandbox/fire_webhook: fires the chosen event type for the item.
import { fireWebhook } from '../app/item-state';
import { sandboxFireWebhook } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(sandboxFireWebhook, ({ deps, item, body }) => fireWebhook(deps, item, body.webhook_type));
