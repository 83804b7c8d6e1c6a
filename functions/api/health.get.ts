// GET /v1/health: 200 {"status":"ok"} when storage answers one cheap read, else 503 storage_unavailable.
import { healthGet } from '../contracts/routes';
import { probeStorage } from '../data/storage-probe';
import { storageFailureOf, storageUnavailable } from '../platform/middleware';
import { logger } from '../platform/observability';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(healthGet, async ({ deps, requestId }) => {
  try {
    await probeStorage(deps);
  } catch (err) {
    // Whatever stops the probe (a missing table or grant too), this deployment cannot serve: 503.
    const failure = storageFailureOf(err);
    if (!failure) logger.error('health check: storage probe failed', { error: err as Error });
    throw storageUnavailable(failure ?? 'storage service error', requestId);
  }
  return { status: 'ok' };
});
