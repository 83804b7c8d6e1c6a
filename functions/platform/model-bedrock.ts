// The model port on AWS: Amazon Bedrock's Converse API. The model id comes from the stage
// (functions/contracts/stages.ts AI_MODEL_BY_STAGE); the function's role may invoke that model only
// (lib/api-grants.ts). The client's module (aws/bedrock.ts) is required, and its client built, on
// first use, and a function built without the grant does not carry it at all (bundled-sdks.ts).
import { LIMITS } from '../contracts/limits';
import type * as BedrockModule from './aws/bedrock';
import { endpointFromEnvironment } from './aws/aws-request';
import type { AwsCredentials } from './aws/sigv4';
import { notBundled } from './bundled-sdks';
import { abortable, ModelOutputError, parseModelJson, type ModelPort, type ModelRequest } from './model-port';
import { tracer } from './observability';

// A literal require behind the build-time switch of bundled-sdks.ts.
let bedrockModule: typeof BedrockModule | undefined;
const bedrock = (): typeof BedrockModule =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see bundled-sdks.ts: esbuild folds this switch
  (bedrockModule ??= process.env.FC_BUNDLE_BEDROCK === 'omit' ? notBundled('bedrock') : (require('./aws/bedrock') as typeof BedrockModule));

export interface BedrockModelOptions {
  /** A Bedrock model id that supports Converse (e.g. `amazon.nova-lite-v1:0`). */
  modelId: string;
  region: string;
  /** A limit of the adapter's own, below the caller's. */
  timeoutMs?: number;
  /**
   * Client settings for tests: a loopback endpoint (else AWS_ENDPOINT_URL_BEDROCK_RUNTIME, else the
   * regional one) and static credentials (else the function's).
   */
  clientConfig?: { endpoint?: string; credentials?: AwsCredentials };
}

/** The Converse request for one refinement: the instructions as the system prompt, the data as the user turn. */
export function converseInput(modelId: string, request: ModelRequest): BedrockModule.ConverseInput {
  return {
    modelId,
    system: [{ text: request.instructions }],
    messages: [{ role: 'user', content: [{ text: JSON.stringify(request.input) }] }],
    inferenceConfig: { maxTokens: request.maxOutputTokens, temperature: 0 },
  };
}

export function createBedrockModel(options: BedrockModelOptions): ModelPort {
  const ownTimeout = options.timeoutMs ?? LIMITS.aiModelTimeoutMs;
  let client: BedrockModule.BedrockRuntimeClient | undefined;
  const clientOf = () => {
    if (client) return client;
    const endpoint = options.clientConfig?.endpoint ?? endpointFromEnvironment('BEDROCK_RUNTIME');
    const credentials = options.clientConfig?.credentials;
    return (client = tracer.traceAwsCalls(
      bedrock().createBedrockRuntimeClient({
        region: options.region,
        ...(endpoint ? { endpoint } : {}),
        ...(credentials ? { credentials } : {}),
        // One attempt: a retry would not fit in the time the route has left.
        maxAttempts: 1,
        attemptTimeoutMs: ownTimeout,
      }),
    ));
  };
  return {
    name: options.modelId,
    async refine(request: ModelRequest, signal: AbortSignal): Promise<unknown> {
      const combined = AbortSignal.any([signal, AbortSignal.timeout(ownTimeout)]);
      const answer = async () => {
        const output = await clientOf().converse(converseInput(options.modelId, request), { signal: combined });
        const text = (output.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
        if (text === '') throw new ModelOutputError(`the model stopped without text (${output.stopReason ?? 'no stop reason'})`);
        return parseModelJson(text);
      };
      return abortable(answer(), combined);
    },
  };
}
