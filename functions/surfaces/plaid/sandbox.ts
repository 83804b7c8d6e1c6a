// Plaid's sandbox helpers over ours (test keys only, as on Plaid): /sandbox/public_token/create,
// /sandbox/item/fire_webhook, /sandbox/item/reset_login.
//
// /sandbox/public_token/create: institution_id (ours: `ins_sandbox_first_bank` and the rest of the
// sandbox network, see /institutions/search), initial_products (Plaid's names) and
// options.override_username (our sandbox logins, docs/link.md: user_good, user_good_<suffix>) and
// options.webhook, which registers a Plaid-shaped webhook endpoint for the environment as
// /link/token/create's `webhook` does (our endpoints belong to the environment, not to one item). Not used:
// options.override_password, options.transactions (the sandbox generates its own history),
// user_token and user_id.
// /sandbox/item/fire_webhook: the webhook codes we emit (functions/core/plaid/webhooks.ts FIRE_WEBHOOK_EVENTS); any
// other code Plaid declares is refused as INVALID_FIELD.
import type { SandboxItemFireWebhookResponse, SandboxItemResetLoginResponse, SandboxPublicTokenCreateResponse } from 'plaid';
import * as z from 'zod';
import type { ResponseOf } from '../../contracts/routes';
import { handler as sandboxFireWebhookHandler } from '../../api/sandbox.fire_webhook';
import { handler as sandboxItemResetLoginHandler } from '../../api/sandbox.item.reset_login';
import { handler as sandboxPublicTokenCreateHandler } from '../../api/sandbox.public_token.create';
import { registerPlaidEndpoint } from '../../app/webhooks';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { unsupportedField } from '../../core/plaid/errors';
import { ourProductsOf } from './products';
import { parsePlaidRequest } from './requests';
import { FIRE_WEBHOOK_EVENTS } from '../../core/plaid/webhooks';
import { PlaidAccessToken, plaidRequest, type Wire } from './wire';

const PublicTokenCreateRequest = plaidRequest(
  {
    institution_id: z.string(),
    initial_products: z.array(z.string()),
    options: z
      .strictObject({
        webhook: z.string().optional(),
        override_username: z.string().nullable().optional(),
        override_password: z.string().nullable().optional(),
        transactions: z.unknown().optional(),
        statements: z.unknown().optional(),
        income_verification: z.unknown().optional(),
      })
      .optional(),
  },
  ['user_token', 'user_id'],
);

const FireWebhookRequest = plaidRequest({ access_token: PlaidAccessToken, webhook_type: z.string().optional(), webhook_code: z.string() });
const TokenRequest = plaidRequest({ access_token: PlaidAccessToken });

/** POST /sandbox/public_token/create */
export async function sandboxPublicTokenCreate(call: InlineCall, body: unknown): Promise<Omit<Wire<SandboxPublicTokenCreateResponse>, 'request_id'>> {
  const request = parsePlaidRequest(PublicTokenCreateRequest, body);
  const username = request.options?.override_username;
  const answer = (await invokeRoute(sandboxPublicTokenCreateHandler, call, {
    institution_id: request.institution_id,
    products: ourProductsOf(request.initial_products),
    ...(username ? { username } : {}),
  })) as ResponseOf<'sandbox.public_token.create'>;
  // After the route, which refuses live keys: a live key registers nothing here.
  if (request.options?.webhook !== undefined) await registerPlaidEndpoint(call.deps, call.auth, request.options.webhook);
  return { public_token: answer.public_token };
}

/** POST /sandbox/item/fire_webhook */
export async function sandboxItemFireWebhook(call: InlineCall, body: unknown): Promise<Omit<Wire<SandboxItemFireWebhookResponse>, 'request_id'>> {
  const request = parsePlaidRequest(FireWebhookRequest, body);
  const fired = Object.hasOwn(FIRE_WEBHOOK_EVENTS, request.webhook_code) ? FIRE_WEBHOOK_EVENTS[request.webhook_code] : undefined;
  if (!fired || (request.webhook_type !== undefined && request.webhook_type !== fired.webhookType)) {
    const served = Object.entries(FIRE_WEBHOOK_EVENTS).map(([code, { webhookType }]) => `${webhookType} ${code}`);
    throw unsupportedField(`webhook_code ${request.webhook_code}${request.webhook_type ? ` of type ${request.webhook_type}` : ''} cannot be fired here. Served: ${served.join(', ')}.`);
  }
  const answer = (await invokeRoute(sandboxFireWebhookHandler, call, { access_token: request.access_token, webhook_type: fired.event })) as ResponseOf<
    'sandbox.fire_webhook'
  >;
  return { webhook_fired: answer.fired };
}

/** POST /sandbox/item/reset_login */
export async function sandboxItemResetLogin(call: InlineCall, body: unknown): Promise<Omit<Wire<SandboxItemResetLoginResponse>, 'request_id'>> {
  const { access_token } = parsePlaidRequest(TokenRequest, body);
  const answer = (await invokeRoute(sandboxItemResetLoginHandler, call, { access_token })) as ResponseOf<'sandbox.item.reset_login'>;
  return { reset_login: answer.reset_login };
}
