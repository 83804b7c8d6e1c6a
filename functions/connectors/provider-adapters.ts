// The adapters of the real providers of this release (every connector but the sandbox simulator and
// the statement importer, which the adapter sets add in the form each needs): one list, so that
// every set that holds all providers (./index.ts ALL_ADAPTERS, ./readers.ts READER_ADAPTERS) names
// the same ones. Link's steps list their own method's providers instead (./by-method), so that a
// step's route bundles no other.
import type { ConnectorFactory } from '../core/connector-port';
import { createAggregatorAConnector } from './aggregator_a';
import { createAggregatorBConnector } from './aggregator_b';
import { createAggregatorCConnector } from './aggregator_c';
import { createAggregatorDConnector } from './aggregator_d';
import { createAggregatorEConnector } from './aggregator_e';
import { createAggregatorFConnector } from './aggregator_f';
import { createAggregatorGConnector } from './aggregator_g';
import { createAggregatorHConnector } from './aggregator_h';
import { createAggregatorIConnector } from './aggregator_i';
import { createCryptoExchangeAConnector } from './crypto_exchange_a';
import { createCryptoExchangeBConnector } from './crypto_exchange_b';
import { createCryptoWalletPublicConnector } from './crypto_wallet_public';
import { createOpenBankingEuConnector } from './open_banking_eu';
import { createPaymentAppAConnector } from './payment_app_a';
import { createProcessorLinkConnector } from './processor_link';

export const PROVIDER_ADAPTERS: ReadonlyArray<readonly [string, ConnectorFactory]> = [
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
  ['crypto_exchange_b', createCryptoExchangeBConnector],
  ['crypto_wallet_public', createCryptoWalletPublicConnector],
  ['open_banking_eu', createOpenBankingEuConnector],
  ['payment_app_a', createPaymentAppAConnector],
  ['processor_link', createProcessorLinkConnector],
];
