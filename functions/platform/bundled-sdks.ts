// Which optional AWS clients (functions/platform/aws/) a Lambda bundle carries. Most routes never
// enqueue, start a delivery, open a secret or call a model, and a function must not carry code it can
// never run: lib/fincore-function.ts therefore replaces each switch below with a build-time constant
// (esbuild `define`), from the capabilities the stack grants that function (lib/api-grants.ts). Where
// a switch is 'omit', esbuild folds `switch === 'omit' ? notBundled(...) : require(...)` and drops
// that client's module, so a call the grants forbid fails with SdkNotBundledError, not at IAM.
//
// The switches must be read exactly as `process.env.FC_BUNDLE_<SDK> === 'omit'` at the require site:
// esbuild only substitutes that literal expression. Unbundled code (local mode, tests) sees the
// variables unset, so every client is available there.

/** The switch per optional client (the DynamoDB client is in every bundle and has none). */
export const SDK_BUNDLE_SWITCHES = {
  /** SQS (the events and refresh queues, aws/sqs.ts). */
  sqs: 'FC_BUNDLE_SQS',
  /** Step Functions (webhook deliveries, aws/sfn.ts). */
  sfn: 'FC_BUNDLE_SFN',
  /** KMS (the secrets key, aws/kms.ts). */
  kms: 'FC_BUNDLE_KMS',
  /** Bedrock Runtime (the AI routes' model, aws/bedrock.ts). */
  bedrock: 'FC_BUNDLE_BEDROCK',
  /** Secrets Manager (the stage's connector credentials, aws/secrets-manager.ts). */
  secretsManager: 'FC_BUNDLE_SECRETS_MANAGER',
  /** Lambda (a route's own function, invoked by a surface that runs other routes: aws/lambda.ts). */
  lambda: 'FC_BUNDLE_LAMBDA',
} as const;
export type OptionalSdk = keyof typeof SDK_BUNDLE_SWITCHES;

/**
 * Not a client: whether a surface that runs other routes (the MCP server) may carry their handlers
 * and run them in its own process. Every deployed function is built with it 'omit' (the MCP server
 * then hands each tool call to the tool's own function, platform/route-functions.ts); local mode and
 * tests, unbundled, run the tools in process.
 */
export const IN_PROCESS_ROUTES_SWITCH = 'FC_BUNDLE_IN_PROCESS_ROUTES';

/**
 * Not a client: whether a route's function answers invocations handed over by another function
 * (platform/route-functions.ts), whose AuthContext it believes. 'include' only in the functions of
 * the routes another route invokes (lib/api-grants.ts ROUTE_INVOCATIONS); every other deployed
 * function is built without that code. Unbundled code (tests) has it.
 */
export const INLINE_CALLS_SWITCH = 'FC_BUNDLE_INLINE_CALLS';

/** Thrown by a call that needs a client its function was built without: the grant table and the code disagree. */
export class SdkNotBundledError extends Error {
  constructor(sdk: OptionalSdk) {
    super(`the ${sdk.toUpperCase()} client is not bundled into this function (${SDK_BUNDLE_SWITCHES[sdk]}=omit): its grants do not allow the call`);
    this.name = 'SdkNotBundledError';
  }
}

export function notBundled(sdk: OptionalSdk): never {
  throw new SdkNotBundledError(sdk);
}
