// Spreading one logical partition over several, so that no physical partition of the table or its
// index takes all the writes of a hot access pattern (DynamoDB allows about 1,000 write units a second
// per partition, and time-ordered sort keys defeat its own splitting: every new entry is the newest).

import { createHash } from 'node:crypto';

/** The shard of `id` among `shards`: stable for the id, spread evenly. */
export function shardOf(id: string, shards: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
}
