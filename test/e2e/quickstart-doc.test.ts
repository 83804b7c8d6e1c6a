// docs/quickstart.md, run as a reader would: every fenced `sh` block of the page, in order, in one
// real bash, against the local server over HTTP. The first block (clone, install, start) is what
// this suite's stack stands in for; the one line that depends on the machine, the base URL, is
// replaced by this server's, and the test key is where the page says `npm start` keeps it. The page
// can then never drift from the API: a renamed field, route or product fails here.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestStack, type TestStack } from '../support/stack';

const QUICKSTART = join(__dirname, '..', '..', 'docs', 'quickstart.md');
const BASE_URL_LINE = 'export FINCORE_BASE_URL=http://localhost:4010';
const BLOCK_END = '--- end of block ---';

/** The fenced `sh` blocks of a Markdown page, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, body]) => body!);
}

let stack: TestStack;
let workdir: string;

beforeAll(async () => {
  stack = await startTestStack();
  workdir = mkdtempSync(join(tmpdir(), 'fc-quickstart-'));
});

afterAll(async () => {
  await stack?.stop();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

jest.setTimeout(120_000);

describe('docs/quickstart.md', () => {
  it('goes from a started server to a synced transaction list with its own commands', async () => {
    const blocks = shellBlocks(readFileSync(QUICKSTART, 'utf8'));
    // The reader's first block starts the service: here, the stack above is that service.
    expect(blocks[0]).toContain('npm install && npm start');
    const commands = blocks.slice(1);
    expect(commands.filter((b) => b.includes(BASE_URL_LINE))).toHaveLength(1);

    // Where `npm start` keeps the test key, relative to the folder the reader works in.
    const testKey = stack.keys.find((k) => k.environment === 'test')!.key;
    mkdirSync(join(workdir, '.data'));
    writeFileSync(join(workdir, '.data', 'test-key'), `${testKey}\n`);

    const script = [
      'set -eo pipefail',
      ...commands.map((block) => `${block.replace(BASE_URL_LINE, `export FINCORE_BASE_URL=${stack.baseUrl}`)}\necho '${BLOCK_END}'`),
    ].join('\n');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FINCORE_')));
    // Asynchronous: the server answering these requests runs in this same process.
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: workdir, env, maxBuffer: 16 * 1024 * 1024 });

    const outputs = stdout.split(`${BLOCK_END}\n`).map((o) => o.trim());
    expect(outputs).toHaveLength(commands.length + 1);
    // The blocks that keep a token echo it: a real one each time, not "undefined".
    expect(outputs).toContainEqual(expect.stringMatching(/^fc_pub_[A-Za-z0-9]+$/));
    expect(outputs).toContainEqual(expect.stringMatching(/^fc_at_[A-Za-z0-9]+$/));

    // The last block's answer: a page of transactions, as the page shows it.
    const answer = JSON.parse(outputs[commands.length - 1]!) as { added: Array<Record<string, unknown>>; has_more: boolean; next_cursor: string };
    expect(answer.added).toHaveLength(5);
    for (const transaction of answer.added) {
      expect(Object.keys(transaction).sort()).toEqual(
        ['account_id', 'amount', 'authorized_datetime', 'category', 'category_detailed', 'date', 'iso_currency_code', 'merchant_name', 'name', 'payment_channel', 'pending', 'transaction_id'].sort(),
      );
    }
    expect(answer.has_more).toBe(true);
    expect(answer.next_cursor).not.toBe('');
  });

  it('shows an answer with exactly the fields the API answers', () => {
    const markdown = readFileSync(QUICKSTART, 'utf8');
    const example = JSON.parse(/^```json\n([\s\S]*?)^```$/m.exec(markdown)![1]!) as { added: Array<Record<string, unknown>> } & Record<string, unknown>;
    expect(Object.keys(example).sort()).toEqual(['added', 'has_more', 'modified', 'next_cursor', 'removed', 'transactions_update_status']);
    expect(Object.keys(example.added[0]!)).toHaveLength(12);
  });
});
