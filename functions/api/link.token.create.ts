// POST /v1/link/token/create: a 30-minute link token for hosted Link (create or update mode).
import { createLinkToken } from '../app/link-session';
import { linkTokenCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkTokenCreate, ({ deps, auth, body }) => createLinkToken(deps, auth, body));
