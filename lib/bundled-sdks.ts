// The optional AWS clients (functions/platform/aws/) a function's bundle carries, from what its
// grants allow (see functions/platform/bundled-sdks.ts): the grant table decides both, so a bundle
// never lacks a client its grants allow, and never carries one they forbid.
import { INLINE_CALLS_SWITCH, IN_PROCESS_ROUTES_SWITCH, SDK_BUNDLE_SWITCHES, type OptionalSdk } from '../functions/platform/bundled-sdks';
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
 * 'include'; no deployed function runs other routes' handlers in process (IN_PROCESS_ROUTES_SWITCH);
 * and only a function other routes hand calls to answers their invocations (INLINE_CALLS_SWITCH).
 */
export function sdkDefines(bundled: readonly OptionalSdk[], options: { answersInlineCalls?: boolean } = {}): Record<string, string> {
  const constant = (included: boolean) => JSON.stringify(included ? 'include' : 'omit');
  return {
    ...Object.fromEntries(ALL_OPTIONAL_SDKS.map((sdk) => [`process.env.${SDK_BUNDLE_SWITCHES[sdk]}`, constant(bundled.includes(sdk))])),
    [`process.env.${IN_PROCESS_ROUTES_SWITCH}`]: constant(false),
    [`process.env.${INLINE_CALLS_SWITCH}`]: constant(options.answersInlineCalls === true),
  };
}
