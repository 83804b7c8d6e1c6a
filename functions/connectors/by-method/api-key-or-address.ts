// The adapters Link's consent step (link.consent) builds: the connectors that take a read-only API
// key and secret, or a public wallet address.
import { createCryptoExchangeBConnector } from '../crypto_exchange_b';
import { createCryptoWalletPublicConnector } from '../crypto_wallet_public';
import type { AdapterSet } from '../registry';

export const API_KEY_OR_ADDRESS_ADAPTERS: AdapterSet = new Map([
  ['crypto_exchange_b', createCryptoExchangeBConnector],
  ['crypto_wallet_public', createCryptoWalletPublicConnector],
]);
