// Which model the AI routes use, from the environment (functions/contracts/stages.ts
// AI_MODEL_ENVIRONMENT): Bedrock when the stack named a model id, else an OpenAI-compatible endpoint
// when one is configured (local runs), else none: the routes answer from the rules alone.
import { AI_MODEL_ENVIRONMENT } from '../contracts/stages';
import { createBedrockModel } from './model-bedrock';
import { createOpenAiCompatibleModel } from './model-openai';
import type { ModelPort } from './model-port';

/** The model an OpenAI-compatible endpoint is asked for when FC_AI_MODEL is not set. */
export const DEFAULT_OPENAI_COMPATIBLE_MODEL = 'gpt-4o-mini';

export function modelFromEnvironment(env: NodeJS.ProcessEnv, region: string): ModelPort | null {
  const bedrockModelId = env[AI_MODEL_ENVIRONMENT.bedrockModelId];
  if (bedrockModelId) return createBedrockModel({ modelId: bedrockModelId, region });
  const baseUrl = env[AI_MODEL_ENVIRONMENT.openAiBaseUrl];
  if (baseUrl) {
    return createOpenAiCompatibleModel({
      baseUrl,
      apiKey: env[AI_MODEL_ENVIRONMENT.openAiApiKey] || undefined,
      model: env[AI_MODEL_ENVIRONMENT.openAiModel] || DEFAULT_OPENAI_COMPATIBLE_MODEL,
    });
  }
  return null;
}

let processModel: { value: ModelPort | null } | undefined;

/** The process's model, from its own environment, chosen once (Lambda cold start, local server). */
export function defaultModel(region: string): ModelPort | null {
  return (processModel ??= { value: modelFromEnvironment(process.env, region) }).value;
}
