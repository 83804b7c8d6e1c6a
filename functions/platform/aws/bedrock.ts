// Amazon Bedrock Runtime's Converse API (REST-JSON): `POST /model/{modelId}/converse` on
// `bedrock-runtime.<region>.amazonaws.com`, signed for `bedrock`, the request's other members as the
// JSON body. Errors name their code in the `x-amzn-errortype` header and carry a `message`
// (aws-request.ts reads both). Only the members our refinements use are typed.
import { callAws, encodePathLabel, regionalEndpoint, withMiddlewares, type AwsEndpointOptions, type AwsMiddleware, type AwsOutput } from './aws-request';

const SERVICE = { serviceName: 'BedrockRuntime', signingName: 'bedrock', endpointPrefix: 'bedrock-runtime' } as const;

export interface ContentBlock {
  text?: string;
}

export interface ConverseInput {
  /** A model id, inference profile id or ARN; it goes in the path. */
  modelId: string;
  system?: Array<{ text: string }>;
  messages: Array<{ role: 'user' | 'assistant'; content: ContentBlock[] }>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
}

export interface ConverseOutput {
  output?: { message?: { role?: string; content?: ContentBlock[] } };
  /** end_turn, max_tokens, stop_sequence, guardrail_intervened, content_filtered, tool_use. */
  stopReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  metrics?: { latencyMs?: number };
}

export interface BedrockRuntimeClient {
  use(middleware: AwsMiddleware): void;
  /** `signal` abandons the request when it fires. */
  converse(input: ConverseInput, options?: { signal?: AbortSignal }): Promise<AwsOutput<ConverseOutput>>;
}


export function createBedrockRuntimeClient(options: AwsEndpointOptions): BedrockRuntimeClient {
  const middlewares: AwsMiddleware[] = [];
  const endpoint = options.endpoint ?? regionalEndpoint(SERVICE.endpointPrefix, options.region);
  return {
    use(middleware) {
      middlewares.push(middleware);
    },
    async converse(input, callOptions = {}) {
      const { modelId, ...body } = input;
      const output = await withMiddlewares(middlewares, { serviceName: SERVICE.serviceName, operation: 'Converse', input }, () =>
        callAws(
          { serviceName: SERVICE.serviceName, signingName: SERVICE.signingName, endpoint, options },
          {
            method: 'POST',
            path: `/model/${encodePathLabel(modelId)}/converse`,
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(body),
            ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          },
        ),
      );
      return output as AwsOutput<ConverseOutput>;
    },
  };
}
