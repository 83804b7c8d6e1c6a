// POST /v1/webhooks/secret/rotate: a new secret, shown once; the old one signs too during the grace period.
import { DEFAULT_ROTATION_GRACE_HOURS, rotateSecret } from '../app/webhooks';
import { webhooksSecretRotate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksSecretRotate, ({ deps, auth, body }) =>
  rotateSecret(deps, auth, body.grace_period_hours ?? DEFAULT_ROTATION_GRACE_HOURS),
);
