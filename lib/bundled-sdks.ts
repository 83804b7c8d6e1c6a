// The optional AWS clients (functions/platform/aws/) a function's bundle carries, from what its
// grants allow (see functions/platform/bundled-sdks.ts): the grant table decides both, so a bundle
// never lacks a client its grants allow, and never carries one they forbid.
import { IN_PROCESS_ROUTES_SWITCH, SDK_BUNDLE_SWITCHES, type OptionalSdk } from '../functions/platform/bundled-sdks';
import type { RouteAccess } from './api-grants';

export const ALL_OPTIONAL_SDKS: readonly OptionalSdk[] = Object.keys(SDK_BUNDLE_SWITCHES) as OptionalSdk[];

export function bundledSdksFor(
  access: Pick<RouteAccess, 'eventsQueue' | 'refreshQueue' | 'deliveryWorkflow' | 'secretsKey' | 'model' | 'connectorConfig'> & Partial<Pick<RouteAccess, 'invokesRoutes'>>,
): OptionalSdk[] {
  return [
    ...(access.eventsQueue || access.refreshQueue ? (['sqs'] as const) : []),
    ...(access.deliveryWorkflow ? (['sfn'] as const) : []),
    ...(access.secretsKey ? (['kms'] as const) : []),
    ...(access.model ? (['bedrock'] as const) : []),
    ...(access.connectorConfig ? (['secretsManager'] as const) : []),
    ...(access.invokesRoutes?.length ? (['lambda'] as const) : []),
  ];
}

/**
 * esbuild `define` entries: each switch the bundle omits becomes the constant 'omit', the rest
 * 'include'; and no deployed function runs other routes' handlers in process (IN_PROCESS_ROUTES_SWITCH).
 */
export function sdkDefines(bundled: readonly OptionalSdk[]): Record<string, string> {
  return {
    ...Object.fromEntries(
      ALL_OPTIONAL_SDKS.map((sdk) => [`process.env.${SDK_BUNDLE_SWITCHES[sdk]}`, JSON.stringify(bundled.includes(sdk) ? 'include' : 'omit')]),
    ),
    [`process.env.${IN_PROCESS_ROUTES_SWITCH}`]: JSON.stringify('omit'),
  };
}
