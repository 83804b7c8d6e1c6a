// The model port over any OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp's
// server, LM Studio, OpenAI itself...), with fetch: the adapter for local runs, configured by
// FC_AI_OPENAI_BASE_URL (+ FC_AI_OPENAI_API_KEY, FC_AI_MODEL; see model-environment.ts).
import { LIMITS } from '../contracts/limits';
import { abortable, ModelOutputError, ModelUnavailableError, parseModelJson, type ModelPort, type ModelRequest } from './model-port';

export interface OpenAiCompatibleOptions {
  /** The API root, e.g. `http://127.0.0.1:11434/v1`; requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when given. */
  apiKey?: string;
  /** The `model` of each request, and what responses name. */
  model: string;
  /** A limit of the adapter's own, below the caller's (tests use a short one). */
  timeoutMs?: number;
}

/** Longest response body read: an answer is a few kilobytes. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): ModelPort {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const ownTimeout = options.timeoutMs ?? LIMITS.aiModelTimeoutMs;
  return {
    name: options.model,
    async refine(request: ModelRequest, signal: AbortSignal): Promise<unknown> {
      const combined = AbortSignal.any([signal, AbortSignal.timeout(ownTimeout)]);
      return abortable(call(url, options, request, combined), combined);
    },
  };
}

async function call(url: string, options: OpenAiCompatibleOptions, request: ModelRequest, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}) },
    body: JSON.stringify({
      model: options.model,
      messages: [
        { role: 'system', content: request.instructions },
        { role: 'user', content: JSON.stringify(request.input) },
      ],
      temperature: 0,
      max_tokens: request.maxOutputTokens,
      stream: false,
    }),
    signal,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new ModelUnavailableError(`the model endpoint answered HTTP ${response.status}`);
  }
  const text = await response.text();
  if (text.length > MAX_RESPONSE_BYTES) throw new ModelOutputError('the response is too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ModelOutputError('the response is not a chat completion');
  }
  const content = (body as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ModelOutputError('the response has no message content');
  return parseModelJson(content);
}
