// What keeps the local runtime's background work durable: on AWS, SQS holds an accepted refresh
// and Step Functions holds a running delivery execution; locally both would live only in memory
// and vanish with the process. So the local runner writes a row per delivery execution in flight
// and per accepted refresh, in the service's own table, and resumes them when it starts again.
import { DeleteCommand, PutCommand } from '../aws/dynamodb';
import { DeliveryExecutionInput, RefreshExecutionInput } from '../../contracts/worker-messages';
import { keys } from '../../data/keys';
import { queryIndexPartition } from '../../data/dynamo';
import type { Deps } from '../runtime';
import type { ExecutionRecord, ExecutionStore } from './workflows';

/** One accepted refresh, kept until it has run. */
export interface RefreshJob {
  jobId: string;
  input: RefreshExecutionInput;
  /** ms; orders an item's jobs (refreshes of one item run one at a time, in this order). */
  queuedAt: number;
}

export interface RefreshJobStore {
  add(job: RefreshJob): Promise<void>;
  remove(job: RefreshJob): Promise<void>;
  /** Every job not yet done, in queue order. */
  pending(): Promise<RefreshJob[]>;
}

export function dynamoExecutionStore(deps: () => Deps): ExecutionStore {
  return {
    save: async (record) => {
      await deps().ddb.send(
        new PutCommand({
          TableName: deps().config.tableName,
          Item: {
            ...keys.localExecution(record.input.delivery_id),
            input: record.input,
            next_attempt: record.nextAttempt,
            next_attempt_at: record.nextAttemptAt,
            time_scale: record.timeScale,
          },
        }),
      );
    },
    remove: async (deliveryId) => {
      const { pk, sk } = keys.localExecution(deliveryId);
      await deps().ddb.send(new DeleteCommand({ TableName: deps().config.tableName, Key: { pk, sk } }));
    },
    unfinished: async () =>
      (await queryIndexPartition(deps(), keys.localExecutions().gsi1pk)).map(
        (row): ExecutionRecord => ({
          input: DeliveryExecutionInput.parse(row.input),
          nextAttempt: row.next_attempt as number,
          nextAttemptAt: row.next_attempt_at as number,
          timeScale: row.time_scale as number,
        }),
      ),
  };
}

export function dynamoRefreshJobStore(deps: () => Deps): RefreshJobStore {
  return {
    add: async (job) => {
      await deps().ddb.send(
        new PutCommand({
          TableName: deps().config.tableName,
          Item: { ...keys.localRefreshJob(job.input.item_id, job.queuedAt, job.jobId), job_id: job.jobId, input: job.input, queued_at: job.queuedAt },
        }),
      );
    },
    remove: async (job) => {
      const { pk, sk } = keys.localRefreshJob(job.input.item_id, job.queuedAt, job.jobId);
      await deps().ddb.send(new DeleteCommand({ TableName: deps().config.tableName, Key: { pk, sk } }));
    },
    pending: async () =>
      (await queryIndexPartition(deps(), keys.localRefreshJobs().gsi1pk))
        .map((row): RefreshJob => ({ jobId: row.job_id as string, input: RefreshExecutionInput.parse(row.input), queuedAt: row.queued_at as number }))
        .sort((a, b) => a.queuedAt - b.queuedAt || a.jobId.localeCompare(b.jobId)),
  };
}
