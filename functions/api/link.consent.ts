// POST /link/api/consent: a read-only API key and secret, or a public wallet address -> connected.
import { linkCallerOf, submitConsent } from '../app/link';
import { linkConsent } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkConsent, ({ deps, body, event }) => submitConsent(deps, body, linkCallerOf(event)));
