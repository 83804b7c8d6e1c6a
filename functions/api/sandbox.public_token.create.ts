// POST /v1/sandbox/public_token/create: Create a public token for a sandbox institution without the browser (CI helper).
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('sandbox.public_token.create');
