// The one handler module of every planned route (`status: 'planned'` in the route table): each such
// route still gets its own Lambda, built from this entry with the route id in FC_ROUTE_ID, and
// answers 501 `not_implemented` after the same validation and metering as a live route.
import { PLANNED_ROUTE_ID_VARIABLE } from '../contracts/routes';
import { plannedOperation } from './operation';

function routeIdFromEnvironment(): string {
  const routeId = process.env[PLANNED_ROUTE_ID_VARIABLE];
  if (!routeId) throw new Error(`${PLANNED_ROUTE_ID_VARIABLE} is not set for this function`);
  return routeId;
}

// Resolved at cold start: a function wired to an unknown or live route fails to initialise.
export const handler = plannedOperation(routeIdFromEnvironment());
