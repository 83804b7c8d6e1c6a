// POST /v1/link/token/exchange: Exchange a single-use public token for a permanent access token.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('link.token.exchange');
