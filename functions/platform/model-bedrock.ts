// The model port on AWS: Amazon Bedrock's Converse API. The model id comes from the stage
// (functions/contracts/stages.ts AI_MODEL_BY_STAGE); the function's role may invoke that model only
// (lib/api-grants.ts). The SDK is required, and its client built, on first use, and a function built
// without the grant does not carry the SDK at all (bundled-sdks.ts).
import type * as BedrockSdk from '@aws-sdk/client-bedrock-runtime';
import { LIMITS } from '../contracts/limits';
import { notBundled } from './bundled-sdks';
import { abortable, ModelOutputError, parseModelJson, type ModelPort, type ModelRequest } from './model-port';
import { tracer } from './observability';

// A literal require behind the build-time switch of bundled-sdks.ts.
let sdk: typeof BedrockSdk | undefined;
const bedrockSdk = (): typeof BedrockSdk =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see bundled-sdks.ts: esbuild folds this switch
  (sdk ??= process.env.FC_BUNDLE_BEDROCK === 'omit' ? notBundled('bedrock') : (require('@aws-sdk/client-bedrock-runtime') as typeof BedrockSdk));

export interface BedrockModelOptions {
  /** A Bedrock model id that supports Converse (e.g. `amazon.nova-lite-v1:0`). */
  modelId: string;
  region: string;
  /** A limit of the adapter's own, below the caller's. */
  timeoutMs?: number;
  /** Client settings for tests (a loopback endpoint, static credentials). */
  clientConfig?: BedrockSdk.BedrockRuntimeClientConfig;
}

/** The Converse request for one refinement: the instructions as the system prompt, the data as the user turn. */
export function converseInput(modelId: string, request: ModelRequest): BedrockSdk.ConverseCommandInput {
  return {
    modelId,
    system: [{ text: request.instructions }],
    messages: [{ role: 'user', content: [{ text: JSON.stringify(request.input) }] }],
    inferenceConfig: { maxTokens: request.maxOutputTokens, temperature: 0 },
  };
}

export function createBedrockModel(options: BedrockModelOptions): ModelPort {
  let client: BedrockSdk.BedrockRuntimeClient | undefined;
  // One attempt: a retry would not fit in the time the route has left.
  const clientOf = () =>
    (client ??= tracer.captureAWSv3Client(new (bedrockSdk().BedrockRuntimeClient)({ region: options.region, maxAttempts: 1, ...options.clientConfig })));
  const ownTimeout = options.timeoutMs ?? LIMITS.aiModelTimeoutMs;
  return {
    name: options.modelId,
    async refine(request: ModelRequest, signal: AbortSignal): Promise<unknown> {
      const combined = AbortSignal.any([signal, AbortSignal.timeout(ownTimeout)]);
      const answer = async () => {
        const output = await clientOf().send(new (bedrockSdk().ConverseCommand)(converseInput(options.modelId, request)), { abortSignal: combined });
        const text = (output.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
        if (text === '') throw new ModelOutputError(`the model stopped without text (${output.stopReason ?? 'no stop reason'})`);
        return parseModelJson(text);
      };
      return abortable(answer(), combined);
    },
  };
}
