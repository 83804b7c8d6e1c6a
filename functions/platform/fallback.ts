// Answers unknown paths (404 route_not_found) and wrong methods (405 method_not_allowed) with the
// error envelope. API Gateway routes its greedy proxy resource and ANY methods here. Unlike a route's
// function, its bundle carries the whole route table: a 405 names the methods its path accepts.
import { fallbackOperation } from './operation';

export const handler = fallbackOperation();
