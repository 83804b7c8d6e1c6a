// POST /v1/link/token/exchange: single-use public token -> permanent access token (rotates in update mode).
import { exchangePublicToken } from '../app/link-session';
import { linkTokenExchange } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkTokenExchange, ({ deps, auth, body }) =>
  exchangePublicToken(deps, auth, body.public_token),
);
