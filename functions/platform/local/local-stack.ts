// The whole service on one machine: DynamoDB Local + table + seed + the HTTP adapter over the
// handler modules. Used by `npm start`, the end-to-end tests and the benchmarks.
import type { AddressInfo } from 'node:net';
import { createLocalKeyProvider } from '../crypto/local-key-provider';
import { configureRuntime, createDeps, type Clock, type Deps } from '../runtime';
import { createLocalPorts, type LocalPorts } from './local-ports';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { logger } from '../observability';
import { restrictFile } from './private-files';
import { createLocalServer, loadHandlers } from './http-server';
import { applySeed, type LocalTestKeyFile, type SeedApplication, type SeededKey } from './seed';

export interface LocalStackOptions {
  port?: number;
  host?: string;
  /** Folder for DynamoDB Local's files; omit (or inMemory) to keep data in memory. */
  dataDir?: string;
  inMemory?: boolean;
  /** Use an already running DynamoDB Local instead of starting one (tests share one). */
  dynamodbEndpoint?: string;
  tableName?: string;
  seed?: SeedApplication[] | null;
  /** Without a seed: where the runtime keeps its own test key across restarts (a new one each start when omitted). */
  testKeyFile?: LocalTestKeyFile;
  /** Check every response against its route's schema (the test suites do). */
  validateResponses?: boolean;
  /** FC_LOCAL_WEBHOOK_TIME_SCALE: 1 runs the retry schedule in real time, 0.01 a hundred times faster. */
  webhookTimeScale?: number;
  /** Where the local key-encryption key lives; in memory when omitted (nothing survives a restart). */
  kekFile?: string;
  clock?: Clock;
  /**
   * Connector configuration (variable name -> value, functions/core/connectors.ts): which live
   * connectors serve and where their providers are. Locally it comes from the environment
   * (bin/local.ts passes process.env); tests point connectors at loopback fakes. None when omitted.
   */
  connectorEnv?: Record<string, string | undefined>;
  /** DynamoDB Local (when we start it) could not be restarted; the default exits the process. */
  onStorageGaveUp?: (error: Error) => void;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  keys: SeededKey[];
  deps: Deps;
  dynamodbEndpoint: string;
  /** The in-process queues and workflows (tests wait on idle()). */
  background: LocalPorts;
  stop(): Promise<void>;
}

/** The keys this start ensured, as a seed that ensures the same again (a generated key stays valid). */
function seedOfKeys(keys: SeededKey[]): SeedApplication[] {
  const byApplication = new Map<string, SeedApplication>();
  for (const key of keys) {
    const app = byApplication.get(key.application) ?? { application: key.application, plan: key.plan, keys: [] };
    app.keys.push(key.key);
    byApplication.set(key.application, app);
  }
  return [...byApplication.values()];
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  let dynamo: DynamoDbLocal | undefined;
  const tableName = options.tableName ?? 'fincore';
  const inMemory = options.inMemory || options.dataDir === undefined;
  // Filled once the seed is applied; an in-memory engine that restarts comes back empty.
  let afterRestart: () => Promise<void> = () => ensureTable(endpoint, tableName);
  const endpoint =
    options.dynamodbEndpoint ??
    (dynamo = await startDynamoDbLocal({
      dataDir: inMemory ? undefined : options.dataDir,
      onRestarted: () => afterRestart(),
      onGaveUp: options.onStorageGaveUp,
    })).endpoint;
  try {
    await ensureTable(endpoint, tableName);
    // The key-encryption key is as secret as the data: owner-only even if an older run left it open.
    if (options.kekFile) restrictFile(options.kekFile);
    // The background ports need deps and deps carry the ports: the ports read deps only once work runs.
    const background = createLocalPorts(() => deps, { timeScale: options.webhookTimeScale ?? 1 });
    const deps: Deps = createDeps(
      { tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint, validateResponses: options.validateResponses, allowLoopbackWebhooks: true, connectorEnv: options.connectorEnv ?? {} },
      { keyProvider: createLocalKeyProvider({ file: options.kekFile }), ports: background.ports, clock: options.clock },
    );
    configureRuntime(deps);
    const keys = await applySeed(deps, options.seed ?? null, options.testKeyFile);
    // What an earlier process on this table left unfinished: deliveries, refreshes, the outbox.
    await background.resume();
    if (inMemory && dynamo) {
      afterRestart = async () => {
        await ensureTable(endpoint, tableName);
        // The same applications and keys: a given seed again, or the key generated at start.
        await applySeed(deps, options.seed ?? seedOfKeys(keys));
        logger.warn('DynamoDB Local kept its data in memory: everything but the table and the keys shown at start was lost');
      };
    }
    const server = createLocalServer(loadHandlers());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
    return {
      baseUrl: `http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`,
      port,
      keys,
      deps,
      dynamodbEndpoint: endpoint,
      background,
      stop: async () => {
        background.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        deps.ddb.destroy();
        await dynamo?.stop();
      },
    };
  } catch (err) {
    await dynamo?.stop();
    throw err;
  }
}
