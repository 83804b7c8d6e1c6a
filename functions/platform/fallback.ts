// Answers unknown paths (404 route_not_found) and wrong methods (405 method_not_allowed) with the
// error envelope. API Gateway routes its greedy proxy resource and ANY methods here.
import { fallbackOperation } from './operation';

export const handler = fallbackOperation();
