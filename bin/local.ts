// `npm start`: the whole service locally on DynamoDB Local. No AWS, no Docker.
//   PORT (default 4010), HOST (default 127.0.0.1), FC_LOCAL_DATA_DIR (default .data/),
//   FC_LOCAL_IN_MEMORY=1 (keep nothing), FC_LOCAL_SEED (applications and keys, JSON),
//   FC_LOCAL_CONSOLE_EMAIL (the console's first owner, default owner@localhost),
//   FC_LOCAL_NEW_TEST_KEY=1 or `npm start -- --new-test-key` (replace the kept test key).
import { ensureConsoleOwner } from '../functions/platform/local/console-owner';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { bannerKey, parseSeed, type SeededKey } from '../functions/platform/local/seed';
import { webhookTimeScaleFromEnv } from '../functions/platform/local/workflows';
import { join } from 'node:path';

/** What the banner says about the runtime's own test key: where it is kept, and whether it is the same as last time. */
function keyBannerNote(keys: SeededKey[], inMemory: boolean, dataDir: string): string {
  const own = keys.find((k) => k.generated);
  if (!own) return 'from FC_LOCAL_SEED';
  if (inMemory) return 'a new test key each start in memory mode';
  const file = join(dataDir, 'test-key');
  return own.kept ? `the same test key as last start, kept in ${file}; npm start -- --new-test-key replaces it` : `a new test key, kept in ${file} for the next starts`;
}

async function main(): Promise<void> {
  // We pin the SDK to a Node 20 compatible release on purpose (see TOOLCHAIN.md).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const inMemory = process.env.FC_LOCAL_IN_MEMORY === '1';
  const dataDir = process.env.FC_LOCAL_DATA_DIR || '.data';
  const port = Number(process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
  const seed = parseSeed(process.env.FC_LOCAL_SEED);

  const webhookTimeScale = webhookTimeScaleFromEnv();
  const stack = await startLocalStack({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    dataDir,
    inMemory,
    seed,
    webhookTimeScale,
    // Live connectors are configured by their variables in the environment, as on AWS by stage config.
    connectorEnv: process.env,
    // The key that seals webhook secrets lives beside the data it protects (never in memory mode).
    kekFile: inMemory ? undefined : join(dataDir, 'local-kek'),
    // The test key stays the same across restarts: kept beside the data, owner-only, never in memory mode.
    testKeyFile: inMemory ? undefined : { file: join(dataDir, 'test-key'), regenerate: process.env.FC_LOCAL_NEW_TEST_KEY === '1' || process.argv.includes('--new-test-key') },
    onStorageGaveUp: (error) => {
      process.stderr.write(`\n${error.message}\nFincore is stopping: it cannot serve without DynamoDB Local.\n`);
      process.exit(1);
    },
  });
  const owner = await ensureConsoleOwner(stack.deps, { email: process.env.FC_LOCAL_CONSOLE_EMAIL, applicationIds: stack.keys.map((k) => k.applicationId) });
  // Only a key shown in full can go into the example; a masked one would not authenticate.
  const exampleKey = stack.keys.find((k) => bannerKey(k) === k.key)?.key ?? '<your key>';
  const lines = [
    '',
    `Fincore is listening on ${stack.baseUrl}`,
    `  data: ${inMemory ? 'in memory (FC_LOCAL_IN_MEMORY=1)' : `${dataDir}/ (DynamoDB Local files, owner-only)`}; DynamoDB Local on ${stack.dynamodbEndpoint} (loopback only)`,
    `  docs: ${stack.baseUrl}/docs (API reference)  ${stack.baseUrl}/docs/errors  ${stack.baseUrl}/openapi.json  ${stack.baseUrl}/llms.txt`,
    `  console: ${stack.baseUrl}/console/  sign in as ${owner.email} ${owner.password ? `/ ${owner.password} (shown once)` : '(password shown at its first start only)'}`,
    `  webhooks: loopback endpoints allowed for test keys (local mode); retry schedule x${webhookTimeScale} (FC_LOCAL_WEBHOOK_TIME_SCALE)`,
    `  keys (${keyBannerNote(stack.keys, inMemory, dataDir)}; seeded and live keys masked; the table stores only their SHA-256):`,
    ...stack.keys.map((k) => `    ${k.application} [${k.plan}] ${k.environment}: ${bannerKey(k)}`),
    '',
    `  try: curl -X POST ${stack.baseUrl}/v1/categories/get -H "Authorization: Bearer ${exampleKey}"`,
    '  Ctrl-C stops the server and DynamoDB Local.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping...\n`);
    stack
      .stop()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: Error) => {
  process.stderr.write(`Could not start: ${err.message}\n`);
  process.exit(1);
});
