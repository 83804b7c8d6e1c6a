// A recording stand-in for SQS behind the AWS adapter of the background ports
// (functions/platform/aws-ports.ts), with the semantics the adapter relies on: SendMessage and
// SendMessageBatch (at most 10 entries with distinct ids; a FIFO queue needs a message group and a
// deduplication id on every entry and drops a repeated deduplication id), and partial batch failures
// (Failed[]) on demand. Install it with jest.mock, building the module in the factory:
//
//   const mockSqs = new FakeSqs();
//   jest.mock('@aws-sdk/client-sqs', () => mockSqs.module());
import type * as SqsSdk from '@aws-sdk/client-sqs';

export interface SentSqsMessage {
  queueUrl: string;
  body: string;
  groupId?: string;
  deduplicationId?: string;
}

interface Entry {
  Id?: string;
  MessageBody?: string;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

const isFifo = (queueUrl: string) => queueUrl.endsWith('.fifo');

export class FakeSqs {
  /** Every SendMessageBatch call, as the entries it carried. */
  readonly batches: { queueUrl: string; entries: Entry[] }[] = [];
  /** What the queues accepted (duplicates dropped), in order. */
  readonly accepted: SentSqsMessage[] = [];
  private readonly deduplicationIds = new Set<string>();
  private readonly refusals = new Map<string, { times: number; senderFault: boolean }>();

  /** The next `times` entries whose body carries `itemId` are refused (Failed[]) instead of queued. */
  refuse(itemId: string, times: number, senderFault = false): void {
    this.refusals.set(itemId, { times, senderFault });
  }

  reset(): void {
    this.batches.length = 0;
    this.accepted.length = 0;
    this.deduplicationIds.clear();
    this.refusals.clear();
  }

  /** The item ids of the refresh messages a queue accepted. */
  acceptedItemIds(): string[] {
    return this.accepted.map((m) => (JSON.parse(m.body) as { item_id: string }).item_id);
  }

  /** '@aws-sdk/client-sqs' with its client replaced by this fake (the command classes stay real). */
  module(): Record<string, unknown> {
    const actual = jest.requireActual<typeof SqsSdk>('@aws-sdk/client-sqs');
    const handle = (commandName: string, input: Record<string, unknown>) => this.handle(commandName, input);
    // The real client (its middleware stack takes the adapter's tracing), answering from this fake.
    class FakeSqsClient extends actual.SQSClient {
      override async send(command: { constructor: { name: string }; input: object }): Promise<never> {
        return handle(command.constructor.name, command.input as Record<string, unknown>) as never;
      }
    }
    return { ...actual, SQSClient: FakeSqsClient };
  }

  private handle(commandName: string, input: Record<string, unknown>): unknown {
    const queueUrl = String(input.QueueUrl);
    if (commandName === 'SendMessageCommand') {
      this.accept(queueUrl, input as Entry);
      return { MessageId: `m-${this.accepted.length}` };
    }
    if (commandName !== 'SendMessageBatchCommand') throw new Error(`the fake SQS does not serve ${commandName}`);
    const entries = (input.Entries ?? []) as Entry[];
    this.batches.push({ queueUrl, entries: entries.map((e) => ({ ...e })) });
    if (entries.length === 0) throw Object.assign(new Error('EmptyBatchRequest'), { name: 'EmptyBatchRequest' });
    if (entries.length > 10) throw Object.assign(new Error('TooManyEntriesInBatchRequest'), { name: 'TooManyEntriesInBatchRequest' });
    if (new Set(entries.map((e) => e.Id)).size !== entries.length) throw Object.assign(new Error('BatchEntryIdsNotDistinct'), { name: 'BatchEntryIdsNotDistinct' });
    const Successful: unknown[] = [];
    const Failed: unknown[] = [];
    for (const entry of entries) {
      const itemId = (JSON.parse(String(entry.MessageBody)) as { item_id?: string }).item_id ?? '';
      const refusal = this.refusals.get(itemId);
      if (refusal && refusal.times > 0) {
        refusal.times -= 1;
        Failed.push({ Id: entry.Id, SenderFault: refusal.senderFault, Code: refusal.senderFault ? 'InvalidParameterValue' : 'InternalError', Message: 'refused by the fake' });
        continue;
      }
      this.accept(queueUrl, entry);
      Successful.push({ Id: entry.Id, MessageId: `m-${this.accepted.length}` });
    }
    return { Successful, Failed };
  }

  private accept(queueUrl: string, entry: Entry): void {
    if (isFifo(queueUrl)) {
      if (!entry.MessageGroupId || !entry.MessageDeduplicationId) throw Object.assign(new Error('MissingParameter'), { name: 'MissingParameter' });
      // FIFO deduplication: a repeated id within the 5-minute window is taken but not delivered again.
      if (this.deduplicationIds.has(entry.MessageDeduplicationId)) return;
      this.deduplicationIds.add(entry.MessageDeduplicationId);
    }
    this.accepted.push({ queueUrl, body: String(entry.MessageBody), groupId: entry.MessageGroupId, deduplicationId: entry.MessageDeduplicationId });
  }
}
