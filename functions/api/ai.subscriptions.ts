// POST /v1/ai/subscriptions: paid subscriptions with annual cost, likely-unused flags and savings notes.
import { subscriptions } from '../app/ai';
import { aiSubscriptions } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiSubscriptions, ({ deps, auth, body }) => subscriptions(deps, auth, body));
