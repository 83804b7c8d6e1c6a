// POST /v1/link/token/create: Mint a 30-minute link token that opens hosted Link at {base_url}/link?token=...
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('link.token.create');
