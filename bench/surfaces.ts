// Benchmark: the GraphQL gateway and the MCP server beside the REST calls they stand for, over real
// HTTP to the local server, in process, against DynamoDB Local in memory. For each case: the median
// latency of the whole exchange and the DynamoDB calls it made (every call on deps.ddb, the
// middleware's key write and token lookups included), as ratios to the REST floor measured in the
// same run, rounds interleaved so a busy moment lands on both sides.
//
//   - "item + accounts + 100 transactions": REST items/get, accounts/get and transactions/get
//     (count 100), one after another, beside one GraphQL query that asks for the same fields.
//   - "100 transactions through MCP": a tools/call of get_transactions beside REST transactions/get
//     with the same arguments (the MCP server runs that route's own code).
//
//   npx tsx bench/surfaces.ts          (BENCH_SURFACES_ROUNDS=40 for more rounds)
import { generateApiKey } from '../functions/core/api-keys';
import { startLocalStack, type LocalStack } from '../functions/platform/local/local-stack';
import { fmt, table } from './lib';

const ROUNDS = Number(process.env.BENCH_SURFACES_ROUNDS ?? 25);
const WARMUP = 5;
const KEY = generateApiKey('test');
const DATES = { start_date: '2000-01-01', end_date: '2100-01-01' };
const TRANSACTION_FIELDS =
  'transaction_id account_id date authorized_datetime name merchant_name amount iso_currency_code pending category category_detailed payment_channel';
const ACCOUNT_FIELDS = 'account_id name official_name mask type subtype verification_status balances { available current limit iso_currency_code }';

interface Sample {
  ms: number;
  calls: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function post(stack: LocalStack, path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Runs `exchange` with every DynamoDB call of the stack counted. */
async function measure(stack: LocalStack, exchange: () => Promise<void>): Promise<Sample> {
  const ddb = stack.deps.ddb;
  const send = ddb.send.bind(ddb);
  let calls = 0;
  ddb.send = ((command: Parameters<typeof send>[0]) => {
    calls += 1;
    return send(command);
  }) as typeof ddb.send;
  const t0 = performance.now();
  try {
    await exchange();
  } finally {
    ddb.send = send as typeof ddb.send;
  }
  return { ms: performance.now() - t0, calls };
}

export async function runSurfaces(): Promise<void> {
  console.log(`\n== GraphQL and MCP beside REST: real HTTP, in process, ${ROUNDS} interleaved rounds ==`);
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench surfaces', plan: 'enterprise', keys: [KEY] }] });
  try {
    const created = (await post(stack, '/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] })) as { public_token: string };
    const { access_token: token } = (await post(stack, '/v1/link/token/exchange', { public_token: created.public_token })) as { access_token: string };
    // The history loads in the background (locally, in process): wait for it to run out.
    await stack.background.idle();

    const rest = async () => {
      await post(stack, '/v1/items/get', { access_token: token });
      await post(stack, '/v1/accounts/get', { access_token: token });
      await post(stack, '/v1/transactions/get', { access_token: token, ...DATES, options: { count: 100 } });
    };
    const query = `query($t: String!) { item(access_token: $t) { item_id institution_id status accounts { ${ACCOUNT_FIELDS} }
      transactions(start_date: "${DATES.start_date}", end_date: "${DATES.end_date}", count: 100) { total_transactions transactions { ${TRANSACTION_FIELDS} } } } }`;
    const graphql = async () => {
      const answer = (await post(stack, '/v1/graphql', { query, variables: { t: token } })) as { errors?: unknown; data?: { item: { transactions: { transactions: unknown[] } } } };
      if (answer.errors || answer.data?.item.transactions.transactions.length !== 100) throw new Error(`GraphQL answered ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const transactionsArgs = { access_token: token, ...DATES, options: { count: 100 } };
    const restTransactions = async () => {
      await post(stack, '/v1/transactions/get', transactionsArgs);
    };
    let id = 0;
    const mcp = async () => {
      const answer = (await post(
        stack,
        '/mcp',
        { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'get_transactions', arguments: transactionsArgs } },
        { Accept: 'application/json, text/event-stream' },
      )) as { result?: { isError?: boolean; structuredContent?: { transactions: unknown[] } } };
      if (answer.result?.isError || answer.result?.structuredContent?.transactions.length !== 100) throw new Error(`MCP answered ${JSON.stringify(answer).slice(0, 300)}`);
    };

    const cases = { rest, graphql, restTransactions, mcp };
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, [] as Sample[]])) as Record<keyof typeof cases, Sample[]>;
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const [name, exchange] of Object.entries(cases) as Array<[keyof typeof cases, () => Promise<void>]>) {
        const sample = await measure(stack, exchange);
        if (round >= WARMUP) samples[name].push(sample);
      }
    }
    const figure = (name: keyof typeof cases) => ({ ms: median(samples[name].map((s) => s.ms)), calls: median(samples[name].map((s) => s.calls)) });
    const [restFloor, graph, restOne, tool] = [figure('rest'), figure('graphql'), figure('restTransactions'), figure('mcp')];
    console.log(
      table([
        { what: 'REST: items/get + accounts/get + transactions/get (3 requests)', 'p50 ms': fmt(restFloor.ms), 'DynamoDB calls': restFloor.calls, 'ms / floor': '1.00 (floor)', 'calls / floor': '1.00 (floor)' },
        { what: 'GraphQL: the same fields in one query', 'p50 ms': fmt(graph.ms), 'DynamoDB calls': graph.calls, 'ms / floor': fmt(graph.ms / restFloor.ms), 'calls / floor': fmt(graph.calls / restFloor.calls) },
        { what: 'REST: transactions/get, count 100', 'p50 ms': fmt(restOne.ms), 'DynamoDB calls': restOne.calls, 'ms / floor': '1.00 (floor)', 'calls / floor': '1.00 (floor)' },
        { what: 'MCP: tools/call get_transactions, same arguments', 'p50 ms': fmt(tool.ms), 'DynamoDB calls': tool.calls, 'ms / floor': fmt(tool.ms / restOne.ms), 'calls / floor': fmt(tool.calls / restOne.calls) },
      ]),
    );
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  runSurfaces().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
