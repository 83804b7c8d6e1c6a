// Read capacity a piece of code consumes: deps whose DynamoDB client asks every read (GetItem,
// BatchGetItem, Query) for its consumed capacity and sums it. Writes are not counted, so an
// ingestion's reads can be told from its writes (deps.ddbCalls.capacityUnits sums both).
import type { Deps } from '../../functions/platform/runtime';

const READS = new Set(['GetCommand', 'BatchGetCommand', 'QueryCommand']);

export interface ReadMeter {
  deps: Deps;
  /** Read capacity units consumed through `deps` so far. */
  units(): number;
  /** Read calls made through `deps` so far. */
  calls(): number;
}

interface Command {
  constructor: { name: string };
  input: { ReturnConsumedCapacity?: string };
}

type Consumed = { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> | undefined;

export function meterReads(deps: Deps): ReadMeter {
  let units = 0;
  let calls = 0;
  const send = async (command: Command) => {
    if (!READS.has(command.constructor.name)) return (deps.ddb.send as (c: unknown) => Promise<unknown>)(command);
    calls += 1;
    command.input.ReturnConsumedCapacity = 'TOTAL';
    const out = (await (deps.ddb.send as (c: unknown) => Promise<unknown>)(command)) as { ConsumedCapacity?: Consumed };
    for (const c of [out.ConsumedCapacity ?? []].flat()) units += c.CapacityUnits ?? 0;
    return out;
  };
  return { deps: { ...deps, ddb: { send } as unknown as Deps['ddb'] }, units: () => units, calls: () => calls };
}
