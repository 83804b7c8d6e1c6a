// `npm run bench`: every benchmark, one after another, printing figures (never asserting them).
import { cpus } from 'node:os';
import { runMiddlewareOverhead } from './middleware-overhead';
import { runSyncPages } from './sync-pages';
import { runWebhooks } from './webhooks';
import { runEnrichment } from './enrichment';
import { runColdStart } from './cold-start';

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  console.log(`machine: ${cpus().length} cores, node ${process.version}`);
  await runMiddlewareOverhead();
  await runSyncPages();
  await runWebhooks();
  await runEnrichment();
  await runColdStart();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
