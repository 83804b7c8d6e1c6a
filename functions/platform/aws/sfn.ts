// AWS Step Functions over its AWS JSON 1.0 protocol (`X-Amz-Target: AWSStepFunctions.<Operation>`):
// StartExecution, the one call our functions make.
import { createAwsJsonClient, SERVICES } from './aws-json';
import type { AwsEndpointOptions, AwsMiddleware, AwsOutput } from './aws-request';

export interface StartExecutionInput {
  stateMachineArn: string;
  /** Unique per state machine for 90 days: a second start with the same name fails with ExecutionAlreadyExists. */
  name?: string;
  /** The execution's input, a JSON text. */
  input?: string;
}

export interface StartExecutionOutput {
  executionArn: string;
  /** Epoch seconds. */
  startDate: number;
}

/** The error code StartExecution answers for a name already used (with another input, or on a standard machine). */
export const EXECUTION_ALREADY_EXISTS = 'ExecutionAlreadyExists';

export interface SfnClient {
  use(middleware: AwsMiddleware): void;
  startExecution(input: StartExecutionInput): Promise<AwsOutput<StartExecutionOutput>>;
}

export function createSfnClient(options: AwsEndpointOptions): SfnClient {
  const client = createAwsJsonClient(SERVICES.sfn, options);
  return {
    use: (middleware) => client.use(middleware),
    startExecution: (input) => client.call<StartExecutionOutput>('StartExecution', input),
  };
}
