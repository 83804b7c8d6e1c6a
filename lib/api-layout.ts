// Which CloudFormation stack owns each piece of the REST API. Pure (no CDK), so the tests can check
// the plan itself.
//
// - Route functions and their methods live in nested stacks, one per route tag (`Routes<Tag>`). A
//   route's stack is decided by its tag alone, so adding a route never moves another route's
//   resources from one stack to another (CloudFormation would create the moved copy before deleting
//   the old one, and API Gateway refuses two resources with the same path).
// - An API Gateway resource (a path segment) belongs to the one route stack whose routes alone sit
//   at or below it; a segment shared by several stacks (`/v1`, `/api`, `/api/v1`) belongs to the
//   parent stack, which passes its id to the route stacks as a parameter.
// - The ANY fallback method of a route path (405 with Allow) goes into the stack of the first route
//   at that path.
import { aliasPaths, type Route } from '../functions/contracts/routes';

/** `items.get` -> `ItemsGet`, `discovery.llms-full` -> `DiscoveryLlmsFull`, `Hosted Link` -> `HostedLink`. */
export function pascalId(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** Construct id of the nested stack that holds a route's function and methods. */
export function routeStackId(route: Pick<Route, 'tag'>): string {
  return `Routes${pascalId(route.tag)}`;
}

export interface RouteStackPlan {
  id: string;
  routes: Route[];
  /** Parent-owned paths ('/' for the root) this stack hangs its own resources and methods under. */
  importedPaths: string[];
  /** Route paths whose ANY fallback method this stack adds. */
  fallbackPaths: string[];
}

export interface ApiPlan {
  stacks: RouteStackPlan[];
  /** Paths created in the parent stack because routes of more than one route stack sit below them. */
  sharedPaths: string[];
}

export function planApi(routes: readonly Route[]): ApiPlan {
  const stacksBelow = new Map<string, Set<string>>();
  const byStack = new Map<string, Route[]>();
  for (const route of routes) {
    const stackId = routeStackId(route);
    byStack.set(stackId, [...(byStack.get(stackId) ?? []), route]);
    for (const path of aliasPaths(route)) {
      for (const prefix of prefixes(path)) {
        stacksBelow.set(prefix, (stacksBelow.get(prefix) ?? new Set()).add(stackId));
      }
    }
  }
  const shared = new Set([...stacksBelow].filter(([, stacks]) => stacks.size > 1).map(([path]) => path));

  const fallbackOwner = new Map<string, string>();
  for (const route of routes) {
    for (const path of aliasPaths(route)) if (!fallbackOwner.has(path)) fallbackOwner.set(path, routeStackId(route));
  }

  const stacks = [...byStack].map(([id, stackRoutes]): RouteStackPlan => {
    const paths = stackRoutes.flatMap(aliasPaths);
    const importedPaths = new Set(paths.map((path) => nearestShared(path, shared)));
    return {
      id,
      routes: stackRoutes,
      importedPaths: [...importedPaths].sort(),
      fallbackPaths: [...new Set(paths)].filter((path) => fallbackOwner.get(path) === id),
    };
  });
  return { stacks, sharedPaths: [...shared].sort() };
}

/** `/v1/items/get` -> `/v1`, `/v1/items`, `/v1/items/get`. */
export function prefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
}

/** The longest shared path at or above `path`, or '/' (the root, always the parent's). */
export function nearestShared(path: string, shared: ReadonlySet<string>): string {
  return [...prefixes(path)].reverse().find((prefix) => shared.has(prefix)) ?? '/';
}

/** Parameter name of a parent-owned path in a route stack: '/' -> `RootResourceId`, '/api/v1' -> `ResourceApiV1`. */
export function pathParameterName(path: string): string {
  if (path === '/') return 'RootResourceId';
  // Path parts may hold '.', '-', '_'; spell those out so that two paths never share a name.
  const spelled = path.replace(/\./g, '/Dot/').replace(/-/g, '/Dash/').replace(/_/g, '/Underscore/');
  return `Resource${pascalId(spelled)}`;
}
