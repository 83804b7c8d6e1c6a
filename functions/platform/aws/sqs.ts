// Amazon SQS over its AWS JSON 1.0 protocol (`X-Amz-Target: AmazonSQS.<Operation>`): the two calls
// our functions make, with the members of the SQS API reference they use.
import { createAwsJsonClient, SERVICES } from './aws-json';
import type { AwsEndpointOptions, AwsMiddleware, AwsOutput } from './aws-request';

export interface SqsMessage {
  MessageBody: string;
  /** FIFO queues: messages of one group are delivered in order, one at a time. */
  MessageGroupId?: string;
  /** FIFO queues: a repeated id within five minutes is accepted but not delivered again. */
  MessageDeduplicationId?: string;
  DelaySeconds?: number;
}

export interface SendMessageInput extends SqsMessage {
  QueueUrl: string;
}

export interface SendMessageOutput {
  MessageId?: string;
  MD5OfMessageBody?: string;
  SequenceNumber?: string;
}

export interface SendMessageBatchInput {
  QueueUrl: string;
  /** At most 10, with ids distinct within the call. */
  Entries: Array<SqsMessage & { Id: string }>;
}

export interface BatchResultErrorEntry {
  Id: string;
  /** True when the entry itself is at fault (it would be refused again). */
  SenderFault: boolean;
  Code: string;
  Message?: string;
}

export interface SendMessageBatchOutput {
  Successful?: Array<{ Id: string; MessageId: string; MD5OfMessageBody: string; SequenceNumber?: string }>;
  Failed?: BatchResultErrorEntry[];
}

export interface SqsClient {
  use(middleware: AwsMiddleware): void;
  sendMessage(input: SendMessageInput): Promise<AwsOutput<SendMessageOutput>>;
  /** Resolves even when some entries were refused: they are in `Failed`. */
  sendMessageBatch(input: SendMessageBatchInput): Promise<AwsOutput<SendMessageBatchOutput>>;
}

export function createSqsClient(options: AwsEndpointOptions): SqsClient {
  const client = createAwsJsonClient(SERVICES.sqs, options);
  return {
    use: (middleware) => client.use(middleware),
    sendMessage: (input) => client.call<SendMessageOutput>('SendMessage', input),
    sendMessageBatch: (input) => client.call<SendMessageBatchOutput>('SendMessageBatch', input),
  };
}
