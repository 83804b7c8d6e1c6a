// npm run test:sdks: every client library's build, unit tests and smoke test against the local
// service, with a check that all of them (and the same journey run here over plain REST) agree.
//
//   1. bin/ensure-sdk-toolchains.sh installs the Debian packages of toolchains that are missing;
//   2. the local service starts in this process (in-memory DynamoDB Local, an enterprise test key);
//   3. this runner runs the smoke journey itself over REST: the expected summary;
//   4. each language (two at a time): its `test` commands, then a fresh real webhook delivery is
//      captured for it (fire_webhook -> a receiver on 127.0.0.1), then its `smoke`;
//   5. a table; exit 1 when a language failed or a summary differs from the expected one.
//
// FC_SDK_LANGUAGES=python,go limits the run; FC_SDK_CONCURRENCY (default 2) and
// FC_SDK_TIMEOUT_SECONDS (default 300 per command) tune it.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT } from './sdks/contract';
import { loadLanguages, SDKS_DIR } from './sdks/generate';
import { SMOKE_ENVIRONMENT, type SdkLanguage, type SmokeSummary } from './sdks/language';
import { selectedLanguageNames, toolchainPresent } from './sdks/toolchains';
import { VECTORS_PATH } from './sdks/vectors';

// Before the service's modules load (they are imported in main): its loggers read this once.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const CONCURRENCY = Math.max(1, Number(process.env.FC_SDK_CONCURRENCY ?? 2));
const COMMAND_TIMEOUT_MS = Math.max(10, Number(process.env.FC_SDK_TIMEOUT_SECONDS ?? 300)) * 1000;
const INSTITUTION = 'ins_sandbox_first_bank';
const UNKNOWN_ACCESS_TOKEN = 'access-sandbox-00000000-0000-0000-0000-000000000000';
const WEBHOOK_TYPE = 'transactions.sync_updates_available';
const DELIVERY_TIMEOUT_MS = 60_000;

type Json = Record<string, unknown>;

/** A minimal REST client for the runner's own journey and its setup calls. */
function restClient(baseUrl: string, apiKey: string) {
  return async function call(path: string, body: Json = {}): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
}
type Rest = ReturnType<typeof restClient>;

async function ok(rest: Rest, path: string, body: Json = {}): Promise<Json> {
  const answer = await rest(path, body);
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The journey of bin/sdks/language.ts over plain REST: what every library must report. */
async function referenceJourney(rest: Rest): Promise<{ summary: Omit<SmokeSummary, 'language' | 'webhook_type'>; accessToken: string }> {
  const { public_token } = await ok(rest, '/v1/sandbox/public_token/create', { institution_id: INSTITUTION, products: ['transactions'] });
  const { access_token } = (await ok(rest, '/v1/link/token/exchange', { public_token })) as { access_token: string };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { item } = (await ok(rest, '/v1/items/get', { access_token })) as { item: { transactions_update_status: string } };
    if (item.transactions_update_status === 'historical_update_complete') break;
    if (Date.now() > deadline) throw new Error('the reference item did not finish loading its history in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { accounts } = (await ok(rest, '/v1/accounts/get', { access_token })) as { accounts: unknown[] };
  let cursor: string | undefined;
  let added = 0;
  let pages = 0;
  for (;;) {
    const page = (await ok(rest, '/v1/transactions/sync', { access_token, count: 500, ...(cursor === undefined ? {} : { cursor }) })) as {
      added: unknown[];
      next_cursor: string;
      has_more: boolean;
    };
    pages += 1;
    added += page.added.length;
    cursor = page.next_cursor;
    if (!page.has_more) break;
  }
  const failed = await rest('/v1/items/get', { access_token: UNKNOWN_ACCESS_TOKEN });
  const error = failed.body.error as { type: string; code: string; request_id?: string; documentation_url: string; display_message: string | null };
  return {
    accessToken: access_token,
    summary: {
      accounts: accounts.length,
      added,
      pages,
      error: {
        status: failed.status,
        type: error.type,
        code: error.code,
        request_id_present: typeof error.request_id === 'string' && error.request_id !== '',
        documentation_url: error.documentation_url,
        display_message: error.display_message,
      },
    },
  };
}

interface Delivery {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A local webhook receiver: answers 200 to everything and hands each delivery to whoever waits for its event id. */
class Receiver {
  private readonly waiting = new Map<string, (delivery: Delivery) => void>();
  private readonly early = new Map<string, Delivery>();
  readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200).end();
      const delivery = { body: Buffer.concat(chunks), headers: req.headers };
      const eventId = String(req.headers['fc-event-id'] ?? '');
      const waiter = this.waiting.get(eventId);
      if (waiter) waiter(delivery);
      else this.early.set(eventId, delivery);
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  delivery(eventId: string): Promise<Delivery> {
    const arrived = this.early.get(eventId);
    if (arrived) return Promise.resolve(arrived);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery of ${eventId} within ${DELIVERY_TIMEOUT_MS / 1000} s`)), DELIVERY_TIMEOUT_MS);
      this.waiting.set(eventId, (delivery) => {
        clearTimeout(timer);
        this.waiting.delete(eventId);
        resolve(delivery);
      });
    });
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}

interface CommandResult {
  command: string;
  code: number | null;
  timedOut: boolean;
  stdout: string;
  ms: number;
}

/** Runs one command in the language's folder, output to a log file (and kept for the SMOKE line). */
function run(command: string[], cwd: string, env: NodeJS.ProcessEnv, log: string): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const out = createWriteStream(log, { flags: 'a' });
    out.write(`$ ${command.join(' ')}\n`);
    let stdout = '';
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole process group: build tools start daemons and compilers of their own.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, COMMAND_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      out.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => out.write(chunk));
    const finish = (code: number | null) => {
      clearTimeout(timer);
      out.end(`\n[exit ${code}${timedOut ? ', timed out' : ''} after ${Date.now() - started} ms]\n`);
      resolve({ command: command.join(' '), code, timedOut, stdout, ms: Date.now() - started });
    };
    child.on('error', (error) => {
      out.write(`${error.message}\n`);
      finish(127);
    });
    child.on('close', (code) => finish(code));
  });
}

interface LanguageResult {
  name: string;
  testMs: number;
  smokeMs: number;
  summary: SmokeSummary | null;
  problems: string[];
  log: string;
}

/** SMOKE {json} lines of a smoke's stdout: exactly one is expected. */
export function parseSmokeLines(stdout: string): unknown[] {
  return stdout
    .split(/\r?\n/)
    .filter((line) => line.startsWith('SMOKE '))
    .map((line) => JSON.parse(line.slice('SMOKE '.length)) as unknown);
}

/** What differs between a language's summary and the expected one (empty when they agree). */
export function summaryDifferences(language: string, actual: unknown, expected: Omit<SmokeSummary, 'language'>): string[] {
  if (typeof actual !== 'object' || actual === null) return ['the SMOKE line is not a JSON object'];
  const got = actual as Record<string, unknown>;
  const problems: string[] = [];
  if (got.language !== language) problems.push(`language is ${JSON.stringify(got.language)}, not ${JSON.stringify(language)}`);
  for (const key of ['accounts', 'added', 'pages', 'webhook_type'] as const) {
    if (got[key] !== expected[key]) problems.push(`${key} is ${JSON.stringify(got[key])}, expected ${JSON.stringify(expected[key])}`);
  }
  const error = (got.error ?? {}) as Record<string, unknown>;
  for (const key of ['status', 'type', 'code', 'request_id_present', 'documentation_url', 'display_message'] as const) {
    if (error[key] !== expected.error[key]) problems.push(`error.${key} is ${JSON.stringify(error[key])}, expected ${JSON.stringify(expected.error[key])}`);
  }
  return problems;
}

function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const only = selectedLanguageNames();
  const languages = await loadLanguages(only);
  if (only) {
    const unknown = only.filter((name) => !languages.some((l) => l.name === name));
    if (unknown.length) throw new Error(`FC_SDK_LANGUAGES names no language module: ${unknown.join(', ')}`);
  }
  if (languages.length === 0) throw new Error('no language modules in bin/sdks/languages/');

  const ensure = spawnSync('bash', [join(ROOT, 'bin', 'ensure-sdk-toolchains.sh')], { stdio: 'inherit', env: process.env });
  if (ensure.status !== 0) console.error('test:sdks: installing toolchains failed; languages whose toolchain is missing will fail');

  const { startLocalStack } = await import('../functions/platform/local/local-stack.js');
  const { generateApiKey } = await import('../functions/core/api-keys.js');
  const apiKey = generateApiKey('test');
  const stack = await startLocalStack({ inMemory: true, seed: [{ application: 'SDK smoke tests', plan: 'enterprise', keys: [apiKey] }], webhookTimeScale: 0.01 });
  const receiver = new Receiver();
  const workRoot = mkdtempSync(join(tmpdir(), 'fincore-sdks-'));
  const results: LanguageResult[] = [];
  try {
    const rest = restClient(stack.baseUrl, apiKey);
    const hookUrl = await receiver.listen();
    const created = (await ok(rest, '/v1/webhooks/endpoints/create', { url: hookUrl })) as { secret: string | null };
    const rotated = created.secret === null ? ((await ok(rest, '/v1/webhooks/secret/rotate', {})) as { secret: string }) : null;
    const secret = created.secret ?? rotated!.secret;
    const reference = await referenceJourney(rest);
    const expected = { ...reference.summary, webhook_type: WEBHOOK_TYPE };
    console.log(`test:sdks: service at ${stack.baseUrl}; expected summary ${JSON.stringify(expected)}`);

    /** A fresh real delivery (the smokes verify it with the real clock, inside the 300 s window). */
    async function captureDelivery(dir: string): Promise<Record<string, string>> {
      const { event_id } = (await ok(rest, '/v1/sandbox/fire_webhook', { access_token: reference.accessToken, webhook_type: WEBHOOK_TYPE })) as { event_id: string };
      const delivery = await receiver.delivery(event_id);
      const bodyFile = join(dir, 'webhook-body.json');
      writeFileSync(bodyFile, delivery.body);
      return {
        [SMOKE_ENVIRONMENT.webhookSecret]: secret,
        [SMOKE_ENVIRONMENT.webhookBodyFile]: bodyFile,
        [SMOKE_ENVIRONMENT.webhookSignature]: String(delivery.headers['fc-signature'] ?? ''),
        [SMOKE_ENVIRONMENT.webhookTimestamp]: String(delivery.headers['fc-timestamp'] ?? ''),
        [SMOKE_ENVIRONMENT.webhookType]: WEBHOOK_TYPE,
      };
    }

    async function runLanguage(language: SdkLanguage): Promise<LanguageResult> {
      const dir = mkdtempSync(join(workRoot, `${language.name}-`));
      const log = join(dir, 'output.log');
      const result: LanguageResult = { name: language.name, testMs: 0, smokeMs: 0, summary: null, problems: [], log };
      const cwd = join(SDKS_DIR, language.name);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        // The repository's Node (node_modules/.bin/node) and tools first, as npm scripts see them.
        PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
        [SMOKE_ENVIRONMENT.baseUrl]: stack.baseUrl,
        [SMOKE_ENVIRONMENT.apiKey]: apiKey,
        [SMOKE_ENVIRONMENT.vectors]: VECTORS_PATH,
        ...(language.env?.(dir) ?? {}),
      };
      if (!toolchainPresent(language, env)) {
        result.problems.push(`toolchain missing (${language.toolchainProbe.join(' ')} failed; apt: ${language.aptPackages.join(' ') || 'none'})`);
        return result;
      }
      for (const command of language.test) {
        const outcome = await run(command, cwd, env, log);
        result.testMs += outcome.ms;
        if (outcome.code !== 0) {
          result.problems.push(`${outcome.command} ${outcome.timedOut ? 'timed out' : `exited ${outcome.code}`}`);
          return result;
        }
      }
      const smoke = await run(language.smoke, cwd, { ...env, ...(await captureDelivery(dir)) }, log);
      result.smokeMs = smoke.ms;
      if (smoke.code !== 0) {
        result.problems.push(`smoke ${smoke.timedOut ? 'timed out' : `exited ${smoke.code}`}`);
        return result;
      }
      let lines: unknown[];
      try {
        lines = parseSmokeLines(smoke.stdout);
      } catch {
        result.problems.push('the SMOKE line is not valid JSON');
        return result;
      }
      if (lines.length !== 1) {
        result.problems.push(`the smoke printed ${lines.length} SMOKE lines, not 1`);
        return result;
      }
      result.summary = lines[0] as SmokeSummary;
      result.problems.push(...summaryDifferences(language.name, lines[0], expected));
      return result;
    }

    const queue = [...languages];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const language = next;
          const result = await runLanguage(language).catch((error: unknown) => ({
            name: language.name,
            testMs: 0,
            smokeMs: 0,
            summary: null,
            problems: [`runner error: ${error instanceof Error ? error.message : String(error)}`],
            log: '',
          }));
          results.push(result);
          console.log(`test:sdks: ${result.name} ${result.problems.length === 0 ? 'passed' : 'FAILED'} (tests ${(result.testMs / 1000).toFixed(1)} s, smoke ${(result.smokeMs / 1000).toFixed(1)} s)`);
        }
      }),
    );
  } finally {
    receiver.close();
    await stack.stop();
  }

  results.sort((a, b) => a.name.localeCompare(b.name));
  const rows = [
    ['language', 'result', 'tests s', 'smoke s', 'accounts', 'added', 'pages', 'error', 'webhook'],
    ...results.map((r) => [
      r.name,
      r.problems.length === 0 ? 'ok' : 'FAIL',
      (r.testMs / 1000).toFixed(1),
      (r.smokeMs / 1000).toFixed(1),
      String(r.summary?.accounts ?? '-'),
      String(r.summary?.added ?? '-'),
      String(r.summary?.pages ?? '-'),
      r.summary ? `${r.summary.error?.status} ${r.summary.error?.type}/${r.summary.error?.code}` : '-',
      r.summary?.webhook_type ?? '-',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log('');
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  const failed = results.filter((r) => r.problems.length > 0);
  for (const r of failed) {
    console.log(`\n${r.name}:\n  ${r.problems.join('\n  ')}`);
    if (r.log) console.log(`  log ${r.log}, last lines:\n${tail(r.log).replace(/^/gm, '    ')}`);
  }
  console.log(`\ntest:sdks: ${results.length - failed.length}/${results.length} languages passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failed.length === 0) rmSync(workRoot, { recursive: true, force: true });
  return failed.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    },
  );
}
