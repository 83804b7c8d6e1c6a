// The service's today (UTC), from the deps' clock: what every date-relative computation is as of.
import type { Deps } from '../platform/runtime';

export function todayOf(deps: Deps): string {
  return new Date(deps.clock.now()).toISOString().slice(0, 10);
}
