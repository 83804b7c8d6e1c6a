// The AWS adapter of RefreshQueue.enqueueMany: SendMessageBatch calls of at most 10 entries, one
// message group per item with a deduplication id, entries SQS refused retried (not those refused
// for the sender's fault), and what is still refused handed back to the caller.
import type { RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import { createAwsPorts } from '../../functions/platform/aws-ports';
import { FakeSqs } from '../support/fake-sqs';

const mockSqs = new FakeSqs();
beforeAll(() => mockSqs.start());
afterAll(() => mockSqs.close());

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/item-refresh.fifo';
const queue = () => createAwsPorts({ ...mockSqs.env(), FC_ITEM_REFRESH_QUEUE_URL: QUEUE }, 'us-east-1').refreshQueue;
const inputs = (n: number): RefreshExecutionInput[] => Array.from({ length: n }, (_, i) => ({ item_id: `item_${i}`, reason: 'scheduled' }));

beforeEach(() => mockSqs.reset());

describe('RefreshQueue.enqueueMany on SQS', () => {
  it('sends batches of at most 10 entries, one message group and deduplication id per item', async () => {
    await expect(queue().enqueueMany(inputs(25))).resolves.toEqual([]);
    expect(mockSqs.batches.map((b) => b.entries.length)).toEqual([10, 10, 5]);
    // SQS's JSON protocol, signed with the function's keys.
    for (const request of mockSqs.server.requests) {
      expect(request.target).toBe('AmazonSQS.SendMessageBatch');
      expect(request.headers['content-type']).toBe('application/x-amz-json-1.0');
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK\/\d{8}\/us-east-1\/sqs\/aws4_request, /);
    }
    for (const batch of mockSqs.batches) {
      expect(batch.queueUrl).toBe(QUEUE);
      expect(new Set(batch.entries.map((e) => e.Id)).size).toBe(batch.entries.length);
    }
    expect(mockSqs.acceptedItemIds()).toEqual(inputs(25).map((i) => i.item_id));
    for (const message of mockSqs.accepted) {
      expect(message.groupId).toBe((JSON.parse(message.body) as RefreshExecutionInput).item_id);
      expect(message.deduplicationId).toMatch(new RegExp(`^${message.groupId}-[a-z_]+-\\d+$`));
    }
  });

  it('makes no call for nothing', async () => {
    await expect(queue().enqueueMany([])).resolves.toEqual([]);
    expect(mockSqs.batches).toEqual([]);
  });

  it('retries only the refused entries, keeping their deduplication ids, and hands back what SQS kept refusing', async () => {
    mockSqs.refuse('item_1', 2);
    mockSqs.refuse('item_2', 99);
    mockSqs.refuse('item_3', 1, true);
    await expect(queue().enqueueMany(inputs(5))).resolves.toEqual([
      { item_id: 'item_3', reason: 'scheduled' },
      { item_id: 'item_2', reason: 'scheduled' },
    ]);
    // First call: all five; then item_1 and item_2 (item_3 was the sender's fault); then both again.
    const sent = mockSqs.batches.map((b) => b.entries.map((e) => (JSON.parse(String(e.MessageBody)) as RefreshExecutionInput).item_id));
    expect(sent).toEqual([['item_0', 'item_1', 'item_2', 'item_3', 'item_4'], ['item_1', 'item_2'], ['item_1', 'item_2']]);
    const dedupOf = (itemId: string) => new Set(mockSqs.batches.flatMap((b) => b.entries).filter((e) => String(e.MessageBody).includes(`"${itemId}"`)).map((e) => e.MessageDeduplicationId));
    expect(dedupOf('item_1').size).toBe(1);
    expect(mockSqs.acceptedItemIds().sort()).toEqual(['item_0', 'item_1', 'item_4']);
  });

  it('passes a refused call through as the service\'s error, named by its code, without retrying it', async () => {
    // No message group on a FIFO queue: SQS refuses the whole call (MissingParameter, the sender's fault).
    await expect(queue().enqueue({ item_id: '', reason: 'scheduled' })).rejects.toMatchObject({
      name: 'MissingParameter',
      $fault: 'client',
      $metadata: expect.objectContaining({ httpStatusCode: 400, attempts: 1 }),
    });
    expect(mockSqs.server.requests.map((r) => r.target)).toEqual(['AmazonSQS.SendMessage']);
  });

  it('names the missing queue variable rather than sending anywhere', async () => {
    await expect(createAwsPorts(mockSqs.env(), 'us-east-1').refreshQueue.enqueueMany(inputs(1))).rejects.toThrow('FC_ITEM_REFRESH_QUEUE_URL');
    expect(mockSqs.batches).toEqual([]);
  });
});
