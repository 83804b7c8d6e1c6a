// A recording stand-in for SQS behind the AWS adapter of the background ports
// (functions/platform/aws-ports.ts), on a loopback port speaking SQS's AWS JSON 1.0 protocol, with
// the semantics the adapter relies on: SendMessage and SendMessageBatch (at most 10 entries with
// distinct ids; a FIFO queue needs a message group and a deduplication id on every entry and drops a
// repeated deduplication id), and partial batch failures (Failed[]) on demand. Start it, and hand
// the adapter `env()` (its endpoint and keys):
//
//   const fakeSqs = new FakeSqs();
//   beforeAll(() => fakeSqs.start());
//   afterAll(() => fakeSqs.close());
//   createAwsPorts({ ...fakeSqs.env(), FC_ITEM_REFRESH_QUEUE_URL: QUEUE }, 'us-east-1');
import { createHash } from 'node:crypto';
import { AwsJsonError, AwsJsonFake, FAKE_CREDENTIALS } from './aws-json-fake';

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
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** SQS's JSON errors name the query-protocol code in a header too; the SDK names the error from `__type` and puts the header's code in `Code`. */
const sqsError = (code: string, queryCode: string, message: string) =>
  new AwsJsonError(`com.amazonaws.sqs#${code}`, message, 400, { 'x-amzn-query-error': `${queryCode};Sender` });

export class FakeSqs {
  /** Every SendMessageBatch call, as the entries it carried. */
  readonly batches: { queueUrl: string; entries: Entry[] }[] = [];
  /** What the queues accepted (duplicates dropped), in order. */
  readonly accepted: SentSqsMessage[] = [];
  private readonly deduplicationIds = new Set<string>();
  private readonly refusals = new Map<string, { times: number; senderFault: boolean }>();
  readonly server = new AwsJsonFake({
    'AmazonSQS.SendMessage': (input) => {
      const queueUrl = String(input.QueueUrl);
      this.accept(queueUrl, input as Entry);
      return { MessageId: `m-${this.accepted.length}`, MD5OfMessageBody: md5(String(input.MessageBody)) };
    },
    'AmazonSQS.SendMessageBatch': (input) => this.sendBatch(input),
  });

  async start(): Promise<void> {
    await this.server.start();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The variables that point the adapter at this fake: its endpoint and keys to sign with. */
  env(): NodeJS.ProcessEnv {
    return { AWS_ENDPOINT_URL_SQS: this.server.endpoint, AWS_ACCESS_KEY_ID: FAKE_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: FAKE_CREDENTIALS.secretAccessKey };
  }

  /** The next `times` entries whose body carries `itemId` are refused (Failed[]) instead of queued. */
  refuse(itemId: string, times: number, senderFault = false): void {
    this.refusals.set(itemId, { times, senderFault });
  }

  reset(): void {
    this.batches.length = 0;
    this.accepted.length = 0;
    this.deduplicationIds.clear();
    this.refusals.clear();
    this.server.requests.length = 0;
  }

  /** The item ids of the refresh messages a queue accepted. */
  acceptedItemIds(): string[] {
    return this.accepted.map((m) => (JSON.parse(m.body) as { item_id: string }).item_id);
  }

  private sendBatch(input: Record<string, unknown>): unknown {
    const queueUrl = String(input.QueueUrl);
    const entries = (input.Entries ?? []) as Entry[];
    this.batches.push({ queueUrl, entries: entries.map((e) => ({ ...e })) });
    if (entries.length === 0) throw sqsError('EmptyBatchRequest', 'AWS.SimpleQueueService.EmptyBatchRequest', 'no entries');
    if (entries.length > 10) throw sqsError('TooManyEntriesInBatchRequest', 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest', `${entries.length} entries`);
    if (new Set(entries.map((e) => e.Id)).size !== entries.length) throw sqsError('BatchEntryIdsNotDistinct', 'AWS.SimpleQueueService.BatchEntryIdsNotDistinct', 'ids repeat');
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
      Successful.push({ Id: entry.Id, MessageId: `m-${this.accepted.length}`, MD5OfMessageBody: md5(String(entry.MessageBody)) });
    }
    return { Successful, Failed };
  }

  private accept(queueUrl: string, entry: Entry): void {
    if (isFifo(queueUrl)) {
      if (!entry.MessageGroupId || !entry.MessageDeduplicationId) throw sqsError('MissingParameter', 'MissingParameter', 'FIFO queues need a group and deduplication id');
      // FIFO deduplication: a repeated id within the 5-minute window is taken but not delivered again.
      if (this.deduplicationIds.has(entry.MessageDeduplicationId)) return;
      this.deduplicationIds.add(entry.MessageDeduplicationId);
    }
    this.accepted.push({ queueUrl, body: String(entry.MessageBody), groupId: entry.MessageGroupId, deduplicationId: entry.MessageDeduplicationId });
  }
}
