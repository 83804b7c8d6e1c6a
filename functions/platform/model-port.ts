// The model port: how the AI routes ask a language model to refine a rules answer. Two adapters:
// Amazon Bedrock's Converse API on AWS (model-bedrock.ts) and any OpenAI-compatible chat-completions
// server for local runs (model-openai.ts); model-environment.ts picks one from the environment, or
// none (rules only).
//
// The port only carries text both ways and parses the answer as JSON. What the model may change is
// decided by the caller (functions/app/ai-refine.ts), which validates the answer and merges back
// only the fields a model may write: an adapter never has to be trusted.

export interface ModelRequest {
  /** The task and the exact JSON shape of the answer (the system prompt). */
  instructions: string;
  /** The data the model works on; sent as JSON, clearly apart from the instructions. */
  input: unknown;
  /** Upper bound of the answer's length, in tokens. */
  maxOutputTokens: number;
}

export interface ModelPort {
  /** How AI responses name this model (`model`): the provider's model id. */
  readonly name: string;
  /**
   * The model's answer, parsed as one JSON value (still unchecked). Rejects when `signal` aborts (the
   * caller's timeout), on transport and HTTP errors, and when the answer is not JSON.
   */
  refine(request: ModelRequest, signal: AbortSignal): Promise<unknown>;
}

/** The model could not be reached or did not answer in time. */
export class ModelUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelUnavailableError';
  }
}

/** The model answered, but not with one JSON value. */
export class ModelOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelOutputError';
  }
}

/** Longest answer text we parse: a refinement is a few kilobytes; more is a runaway generation. */
const MAX_ANSWER_CHARS = 200_000;

/**
 * The JSON value in a model's text answer. Models often wrap JSON in a Markdown code fence even when
 * told not to; one fence around the whole answer is tolerated, nothing else.
 */
export function parseModelJson(text: string): unknown {
  if (text.length > MAX_ANSWER_CHARS) throw new ModelOutputError(`the answer is ${text.length} characters long`);
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  try {
    return JSON.parse(fenced ? fenced[1] : trimmed);
  } catch {
    throw new ModelOutputError('the answer is not JSON');
  }
}

/** Rejects as soon as `signal` aborts, whether or not `work` listens to it. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ModelUnavailableError('the model did not answer in time'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ModelUnavailableError('the model did not answer in time'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof ModelUnavailableError || err instanceof ModelOutputError ? err : new ModelUnavailableError((err as Error)?.message ?? String(err), { cause: err }));
      },
    );
  });
}
