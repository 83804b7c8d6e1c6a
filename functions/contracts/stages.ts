// Where the service runs: the deployed stages CDK creates (bin/app.ts `-c stage=`), plus the local
// runtime. Declared once for the stack's configuration and the functions' own.
export const DEPLOYED_STAGES = ['sandbox', 'production'] as const;
export type DeployedStage = (typeof DEPLOYED_STAGES)[number];

export const RUNTIME_STAGES = /* @__PURE__ */ (() => ['local', ...DEPLOYED_STAGES] as const)();
export type RuntimeStage = (typeof RUNTIME_STAGES)[number];

/**
 * The language model the AI routes refine their rules answers with, per deployed stage: an Amazon
 * Bedrock model id that supports the Converse API and on-demand invocation in the stack's region (a
 * foundation-model id, so the IAM grant names exactly one `foundation-model/<id>` ARN), or null to
 * serve rules answers only. The stack passes the id to the AI functions (AI_MODEL_ENVIRONMENT) and
 * grants `bedrock:InvokeModel` on that model alone; local runs name an OpenAI-compatible endpoint
 * instead (docs/ai.md).
 */
export const AI_MODEL_BY_STAGE: Record<DeployedStage, { bedrockModelId: string } | null> = {
  sandbox: { bedrockModelId: 'amazon.nova-micro-v1:0' },
  production: { bedrockModelId: 'amazon.nova-lite-v1:0' },
};

/**
 * Environment variables that choose the AI routes' model (functions/platform/model-port.ts). On AWS
 * the stack sets `bedrockModelId`; locally, `openAiBaseUrl` (+ optional key and model name) points at
 * any OpenAI-compatible chat-completions server. Neither set: rules only.
 */
export const AI_MODEL_ENVIRONMENT = {
  bedrockModelId: 'FC_AI_BEDROCK_MODEL_ID',
  openAiBaseUrl: 'FC_AI_OPENAI_BASE_URL',
  openAiApiKey: 'FC_AI_OPENAI_API_KEY',
  openAiModel: 'FC_AI_MODEL',
} as const;
