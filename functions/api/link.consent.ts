// POST /link/api/consent: a read-only API key and secret, or a public wallet address -> connected.
import { submitConsent } from '../app/link-consent';
import { linkCallerOf } from '../app/link-session';
import { linkConsent } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkConsent, ({ deps, body, event }) => submitConsent(deps, body, linkCallerOf(event)));
