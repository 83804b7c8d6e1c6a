// Benchmark: Link's connect step (POST /link/api/connect, the page's submit-credentials call) over
// local HTTP. "Answered" is what the user waits for now: the item and its accounts exist, the public
// token is issued and the history load is queued. "With history" waits until the refresh worker has
// loaded the whole history (the in-process queue runs out), which is what connect cost when it loaded
// the history inline, before answering. The floor, measured in the same run on the same server, is
// POST /link/api/session: the same page API (rate limiting, the session read) doing no work of its own.
import { generateApiKey } from '../functions/core/api-keys';
import { getItem } from '../functions/data/items-repo';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { fmt, table } from './lib';

const CONNECTS = Number(process.env.BENCH_LINK_CONNECTS ?? 15);
const TARGET_P50_MS = 300;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

async function postJson(url: string, body: unknown, key?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export async function runLinkConnect(): Promise<void> {
  console.log(`\n== Link connect: ${CONNECTS} sandbox connections (24 months of history each) through the local server ==`);
  const key = generateApiKey('test');
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [key] }] });
  const floor: number[] = [];
  const answered: number[] = [];
  const withHistory: number[] = [];
  try {
    const linkToken = async () =>
      (await postJson(`${stack.baseUrl}/v1/link/token/create`, { user: { client_user_id: 'bench' }, products: ['transactions'] }, key)).link_token as string;
    // One warm-up connection (module loading, first table writes), not counted.
    for (let i = -1; i < CONNECTS; i += 1) {
      const token = await linkToken();
      const f0 = performance.now();
      await postJson(`${stack.baseUrl}/link/api/session`, { link_token: token });
      const f1 = performance.now();
      const t0 = performance.now();
      const connected = await postJson(`${stack.baseUrl}/link/api/connect`, {
        link_token: token,
        institution_id: 'ins_sandbox_first_bank',
        username: `user_good_connect${i + 1}`,
        password: 'pass_good',
      });
      const t1 = performance.now();
      await stack.background.idle();
      const t2 = performance.now();
      const itemId = (connected.metadata as { item_id: string }).item_id;
      const item = await getItem(stack.deps, itemId);
      if (item?.transactionsUpdateStatus !== 'historical_update_complete') throw new Error(`the history of ${itemId} did not load`);
      if (i < 0) continue;
      floor.push(f1 - f0);
      answered.push(t1 - t0);
      withHistory.push(t2 - t0);
    }
  } finally {
    await stack.stop();
  }
  const floorP50 = percentile(floor, 0.5);
  const floorP99 = percentile(floor, 0.99);
  const row = (what: string, values: number[]) => ({
    what,
    'p50 ms': fmt(percentile(values, 0.5), 0),
    'p99 ms': fmt(percentile(values, 0.99), 0),
    'p50 / floor': fmt(percentile(values, 0.5) / floorP50, 1),
    'p99 / floor': fmt(percentile(values, 0.99) / floorP99, 1),
  });
  console.log(
    table([
      row('floor: POST /link/api/session', floor),
      row('connect, answered (history queued)', answered),
      row('connect + history loaded (as before: inline)', withHistory),
    ]),
  );
  const p50 = percentile(answered, 0.5);
  console.log(
    `connect answers at ${fmt(percentile(withHistory, 0.5) / p50, 1)}x less than connect with its history at p50; ` +
      `answered p50 ${fmt(p50, 0)} ms against a target of ${TARGET_P50_MS} ms (${p50 <= TARGET_P50_MS ? 'met' : 'missed'} on this machine).`,
  );
}

if (require.main === module) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  runLinkConnect().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
