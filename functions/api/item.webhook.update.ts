// POST /v1/item/webhook/update: set, change or clear the item's own webhook URL.
import { updateItemWebhook } from '../app/webhooks';
import { itemWebhookUpdate } from '../contracts/routes';
import { publicItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(itemWebhookUpdate, async ({ deps, item, body }) => {
  const updated = await updateItemWebhook(deps, item, body.webhook);
  return { item: publicItem(updated.item), webhook: updated.item.webhook, webhook_secret: updated.webhookSecret };
});
