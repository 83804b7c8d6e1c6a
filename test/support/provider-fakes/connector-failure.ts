// What a connector call failed with: the ConnectorError it rejected with (anything else is a test
// failure, as is not failing at all).
import { ConnectorError } from '../../../functions/core/connector-port';

export async function connectorFailure(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectorError) return err;
    throw err;
  }
  throw new Error('expected a ConnectorError');
}
