// The adapters Link's OAuth steps (link.oauth.start, link.oauth.complete, link.oauth.resume) build:
// every OAuth connector of this release, and the sandbox's simulated OAuth bank for test keys.
import { SANDBOX_CONNECTOR_ID } from '../../core/connectors';
import { createAggregatorAConnector } from '../aggregator_a';
import { createAggregatorBConnector } from '../aggregator_b';
import { createAggregatorCConnector } from '../aggregator_c';
import { createAggregatorDConnector } from '../aggregator_d';
import { createAggregatorEConnector } from '../aggregator_e';
import { createAggregatorFConnector } from '../aggregator_f';
import { createAggregatorGConnector } from '../aggregator_g';
import { createAggregatorHConnector } from '../aggregator_h';
import { createAggregatorIConnector } from '../aggregator_i';
import { createCryptoExchangeAConnector } from '../crypto_exchange_a';
import { createOpenBankingEuConnector } from '../open_banking_eu';
import { createPaymentAppAConnector } from '../payment_app_a';
import { createProcessorLinkConnector } from '../processor_link';
import type { AdapterSet } from '../registry';
import { sandboxOauthConnector } from '../sandbox';

export const OAUTH_ADAPTERS: AdapterSet = new Map([
  [SANDBOX_CONNECTOR_ID, () => sandboxOauthConnector],
  ['aggregator_a', createAggregatorAConnector],
  ['aggregator_b', createAggregatorBConnector],
  ['aggregator_c', createAggregatorCConnector],
  ['aggregator_d', createAggregatorDConnector],
  ['aggregator_e', createAggregatorEConnector],
  ['aggregator_f', createAggregatorFConnector],
  ['aggregator_g', createAggregatorGConnector],
  ['aggregator_h', createAggregatorHConnector],
  ['aggregator_i', createAggregatorIConnector],
  ['crypto_exchange_a', createCryptoExchangeAConnector],
  ['open_banking_eu', createOpenBankingEuConnector],
  ['payment_app_a', createPaymentAppAConnector],
  ['processor_link', createProcessorLinkConnector],
]);
