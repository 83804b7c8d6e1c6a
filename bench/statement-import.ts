// Benchmark: importing a statement within its request (POST /v1/items/statements/upload), over real
// HTTP to the local server against DynamoDB Local in memory. For files of several sizes: the upload
// of new transactions, the same file uploaded again (nothing new), and the floor measured in the
// same run: parsing the same bytes alone (core/statements), which every upload must do. Figures are
// ms per transaction and ratios to that floor; the last column projects how many transactions an
// upload handles in the upload functions' 29-second timeout at the measured rate, which is what
// LIMITS.statementUploadMaxTransactions is set against (with room to spare: Lambda's CPU at 512 MB
// is slower than this machine's).
//
//   npx tsx bench/statement-import.ts          (BENCH_IMPORT_SIZES=2000,10000,20000)
import { generateApiKey } from '../functions/core/api-keys';
import { parseStatement } from '../functions/core/statements';
import { LIMITS } from '../functions/contracts/limits';
import { startLocalStack, type LocalStack } from '../functions/platform/local/local-stack';
import { fmt, table } from './lib';

const KEY = generateApiKey('test');
const SIZES = (process.env.BENCH_IMPORT_SIZES ?? '2000,10000').split(',').map(Number);
const TIMEOUT_MS = 29_000;
const MERCHANTS = ['COFFEE ROASTERS', 'CITY GROCER', 'METRO TRANSIT', 'ONLINE BOOKS', 'PHARMACY 24', 'FUEL STATION 9', 'PAYROLL ACME INC', 'RENT PAYMENT'];

/** A CSV export of `rows` transactions, one a day going back, starting `offset` rows in. */
function csv(rows: number, offset: number): Buffer {
  const lines = ['Date,Description,Amount,Balance'];
  let balance = 10_000;
  for (let i = 0; i < rows; i++) {
    const n = offset + i;
    const date = new Date(Date.UTC(2026, 5, 30) - n * 3_600_000).toISOString().slice(0, 10);
    const amount = n % 17 === 0 ? 2450 : -((n * 37) % 9000) / 100 - 1;
    balance += amount;
    lines.push(`${date},${MERCHANTS[n % MERCHANTS.length]} #${n},${amount.toFixed(2)},${balance.toFixed(2)}`);
  }
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

async function post(stack: LocalStack, path: string, body: unknown, key: string | null = KEY): Promise<Record<string, unknown>> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

export async function runStatementImport(): Promise<void> {
  console.log('\n== statement import within the request: real HTTP, in process, DynamoDB Local in memory ==');
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench import', plan: 'enterprise', keys: [KEY] }] });
  try {
    const rows: Array<Record<string, string>> = [];
    for (const size of SIZES) {
      // The item is created from a one-row file, so the measured upload brings `size` new transactions.
      const link = (await post(stack, '/v1/link/token/create', { user: { client_user_id: 'bench' }, products: ['transactions'] })) as { link_token: string };
      const first = csv(1, 90_000).toString('base64');
      const uploaded = (await post(stack, '/link/api/upload', { link_token: link.link_token, institution_id: 'ins_chase', file_name: 'first.csv', file_base64: first }, null)) as { public_token: string };
      const { access_token: token } = (await post(stack, '/v1/link/token/exchange', { public_token: uploaded.public_token })) as { access_token: string };

      const file = csv(size, 0);
      const parseMs = await timed(async () => parseStatement(file, 'bench.csv'));
      const body = { access_token: token, file_name: 'bench.csv', file_base64: file.toString('base64') };
      let added = 0;
      const uploadMs = await timed(async () => {
        added = ((await post(stack, '/v1/items/statements/upload', body)).transactions as { added: number }).added;
      });
      if (added !== size) throw new Error(`the upload added ${added} of ${size} transactions`);
      const againMs = await timed(() => post(stack, '/v1/items/statements/upload', body));
      const perTxn = uploadMs / size;
      rows.push({
        transactions: String(size),
        'parse floor ms/txn': fmt(parseMs / size, 3),
        'upload ms/txn': fmt(perTxn, 3),
        'upload / floor': `${fmt(uploadMs / parseMs, 1)}x`,
        'same file again ms/txn': fmt(againMs / size, 3),
        'again / floor': `${fmt(againMs / parseMs, 1)}x`,
        [`fits in ${TIMEOUT_MS / 1000} s`]: String(Math.floor(TIMEOUT_MS / perTxn)),
      });
    }
    console.log(table(rows));
    console.log(`upload cap (LIMITS.statementUploadMaxTransactions): ${LIMITS.statementUploadMaxTransactions}`);
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  runStatementImport().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
