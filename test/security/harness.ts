// Shared by the security suite: the error-envelope check every refusal must pass, a fingerprint of
// the table to prove a refused request wrote nothing, and raw calls with a bounded time.
import { ScanCommand } from '../../functions/platform/aws/dynamodb';
import type { Json } from '../support/json';
import type { CallResult, TestStack } from '../support/stack';

/** A request that takes longer than this counts as a hang. */
export const CALL_TIMEOUT_MS = 10_000;

/** The parts of a refusal a client can see, for comparing two answers. */
export interface ErrorShape {
  status: number;
  type: unknown;
  code: unknown;
  message: unknown;
  keys: string[];
}

export function errorShape(res: CallResult): ErrorShape {
  const error = res.json?.error;
  return {
    status: res.status,
    type: error?.type,
    code: error?.code,
    message: error?.message,
    keys: error && typeof error === 'object' ? Object.keys(error).sort() : [],
  };
}

/**
 * What is wrong with `res` as a refusal: not a 4xx, or not exactly `{error:{type,code,message,
 * request_id}}` with string values and the request id echoed in the header. Empty when it is one.
 */
export function envelopeProblems(res: CallResult): string[] {
  const problems: string[] = [];
  if (res.status < 400 || res.status > 499) problems.push(`status ${res.status} is not a 4xx`);
  const body: Json = res.json;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, `body is not a JSON object: ${res.text.slice(0, 200)}`];
  if (Object.keys(body).join() !== 'error') problems.push(`top-level keys ${JSON.stringify(Object.keys(body))}`);
  const error = body.error;
  if (!error || typeof error !== 'object') return [...problems, 'no error object'];
  if (Object.keys(error).sort().join() !== 'code,display_message,documentation_url,message,request_id,type') problems.push(`error keys ${JSON.stringify(Object.keys(error))}`);
  for (const field of ['type', 'code', 'message', 'request_id', 'documentation_url']) {
    if (typeof error[field] !== 'string' || error[field] === '') problems.push(`error.${field} is not a non-empty string`);
  }
  if (error.display_message !== null && typeof error.display_message !== 'string') problems.push('error.display_message is neither a string nor null');
  if (res.headers.get('x-request-id') !== error.request_id) problems.push('x-request-id header differs from error.request_id');
  return problems;
}

/**
 * Every row of the stack's table except what every request writes by design: API-key rows (its key's
 * rate-limit and usage counters), the request log (one entry and its request-id lookup per
 * key-authenticated request, refused ones included) and console sessions (a signed-in request moves
 * its session's idle deadline every 5 minutes), as one comparable string: a refused request must not
 * change it.
 */
const BY_DESIGN = ['KEY#', 'REQLOG#', 'REQID#', 'SESSION#'];

export async function tableFingerprint(stack: TestStack): Promise<string> {
  // Taken only once background work (deliveries, refreshes) has settled: their own rows (durable
  // executions, attempts) change on their own, and would look like a write by the request under test.
  await stack.background.idle();
  const rows: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stack.deps.ddb.send(new ScanCommand({ TableName: stack.deps.config.tableName, ExclusiveStartKey: start }));
    rows.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return rows
    .filter((row) => !BY_DESIGN.some((prefix) => String(row.pk).startsWith(prefix)))
    .map((row) => JSON.stringify(Object.keys(row).sort().map((k) => [k, row[k]])))
    .sort()
    .join('\n');
}

/** Background work (refreshes, webhook deliveries) finished, so the table only changes by request. */
export async function quiesce(stack: TestStack): Promise<void> {
  await stack.background.idle();
}

/** A raw request (bytes and headers exactly as given), answered as the stack's call() answers. */
export async function rawCall(
  stack: TestStack,
  path: string,
  init: { key: string; body: Uint8Array | string; contentType?: string; accept?: string; headers?: Record<string, string> },
): Promise<CallResult> {
  const headers: Record<string, string> = { Authorization: `Bearer ${init.key}`, ...init.headers };
  if (init.contentType !== undefined) headers['Content-Type'] = init.contentType;
  if (init.accept !== undefined) headers.Accept = init.accept;
  const res = await fetch(stack.baseUrl + path, { method: 'POST', headers, body: init.body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
