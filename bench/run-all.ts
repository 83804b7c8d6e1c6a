// `npm run bench`: every benchmark, one after another, printing figures (never asserting them).
import { cpus } from 'node:os';
import { runMiddlewareOverhead } from './middleware-overhead';
import { runMeteringShards } from './metering-shards';
import { runSyncPages } from './sync-pages';
import { runFeedCost } from './feed-cost';
import { runProductReads } from './product-reads';
import { runWebhooks } from './webhooks';
import { runRefreshSweep } from './refresh-sweep';
import { runLinkConnect } from './link-connect';
import { runEnrichment } from './enrichment';
import { runEnrichmentFallback } from './enrichment-fallback';
import { runAiCategorize } from './ai-categorize';
import { runSurfaces } from './surfaces';
import { runColdStart } from './cold-start';
import { runCostModel } from './cost-model';
import { runStatementImport } from './statement-import';
import { runRequestLog } from './request-log';

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  console.log(`machine: ${cpus().length} cores, node ${process.version}`);
  await runMiddlewareOverhead();
  await runMeteringShards();
  await runSyncPages();
  await runFeedCost();
  await runProductReads();
  await runWebhooks();
  await runRefreshSweep();
  await runLinkConnect();
  await runEnrichment();
  await runEnrichmentFallback();
  await runAiCategorize();
  await runSurfaces();
  await runStatementImport();
  await runRequestLog();
  await runColdStart();
  await runCostModel();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
