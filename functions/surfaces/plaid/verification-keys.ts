// POST /webhook_verification_key/get: the public half of a key that signs the caller's Plaid-shaped
// webhooks (functions/app/plaid-webhook-keys.ts keeps them), as Plaid's JWKPublicKey. Only the
// caller's own application and environment's keys answer; any other id is Plaid's
// INVALID_WEBHOOK_VERIFICATION_KEY_ID.
import type { WebhookVerificationKeyGetResponse } from 'plaid';
import * as z from 'zod';
import { plaidJwkOf } from '../../app/plaid-webhook-keys';
import { invalidVerificationKeyId } from '../../core/plaid/errors';
import { getPlaidKey } from '../../data/plaid-keys-repo';
import type { InlineCall } from '../../platform/operation';
import { parsePlaidRequest } from './requests';
import { plaidRequest, type Wire } from './wire';

const KeyRequest = plaidRequest({ key_id: z.string().max(256) });

/** POST /webhook_verification_key/get: a key of the caller's application and environment, by id. */
export async function webhookVerificationKeyGet(call: InlineCall, body: unknown): Promise<Omit<Wire<WebhookVerificationKeyGetResponse>, 'request_id'>> {
  const { key_id } = parsePlaidRequest(KeyRequest, body);
  const key = await getPlaidKey(call.deps, call.auth.applicationId, call.auth.environment, key_id);
  if (!key) throw invalidVerificationKeyId(`No webhook verification key of this application and environment has the id ${JSON.stringify(key_id.slice(0, 64))}.`);
  return { key: plaidJwkOf(key, call.deps.clock.now()) };
}
