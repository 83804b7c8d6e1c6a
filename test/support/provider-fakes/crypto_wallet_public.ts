// A loopback fake of the two chain indexers the public-address wallet reads, in their documented
// shapes. Esplora under /btc: GET /address/:address (chain_stats and mempool_stats), GET
// /address/:address/txs (unconfirmed first, then the newest 25 confirmed) and GET
// /address/:address/txs/chain/:last_seen_txid (the next 25 confirmed). Etherscan API V2 under
// /evm/v2/api: chainid and apikey checked, module=account&action=balance and action=txlist with
// startblock/endblock/page/offset/sort, its errors as HTTP 200 with status "0".
import { createHash } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_ETHERSCAN_KEY = 'fake-etherscan-key-123';
const ESPLORA_PAGE = 25;

export interface FakeBtcTx {
  txid: string;
  /** null while unconfirmed. */
  height: number | null;
  time: number | null;
  vin: { address: string; value: number }[];
  vout: { address: string; value: number }[];
  fee: number;
}

export interface FakeEthTx {
  hash: string;
  blockNumber: number;
  timeStamp: number;
  from: string;
  to: string;
  value: string;
  gasUsed: string;
  gasPrice: string;
  isError?: '0' | '1';
  functionName?: string;
}

export interface CryptoFakeState {
  /** Bitcoin transactions, newest first (unconfirmed ones first of all). */
  btc: FakeBtcTx[];
  eth: FakeEthTx[];
  ethBalance: string;
  intercept?: (request: FakeRequest) => FakeResponse | undefined;
}

export interface CryptoWalletFake extends FakeServer {
  state: CryptoFakeState;
  btcBaseUrl: string;
  evmBaseUrl: string;
}

export const fakeTxid = (seed: string): string => createHash('sha256').update(seed).digest('hex');
export const fakeEthHash = (seed: string): string => `0x${fakeTxid(seed)}`;

const esploraTx = (tx: FakeBtcTx) => ({
  txid: tx.txid,
  version: 2,
  locktime: 0,
  vin: tx.vin.map((input, i) => ({ txid: fakeTxid(`${tx.txid}:${i}`), vout: 0, prevout: { scriptpubkey: '0014', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: input.address, value: input.value }, is_coinbase: false, sequence: 4294967293 })),
  vout: tx.vout.map((output) => ({ scriptpubkey: '0014', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: output.address, value: output.value })),
  size: 222,
  weight: 561,
  fee: tx.fee,
  status: tx.height === null ? { confirmed: false } : { confirmed: true, block_height: tx.height, block_hash: fakeTxid(`block${tx.height}`), block_time: tx.time },
});

export async function startCryptoWalletFake(): Promise<CryptoWalletFake> {
  const state: CryptoFakeState = { btc: [], eth: [], ethBalance: '0' };

  function stats(address: string, confirmed: boolean) {
    const txs = state.btc.filter((tx) => (tx.height !== null) === confirmed);
    const funded = txs.flatMap((tx) => tx.vout.filter((o) => o.address === address));
    const spent = txs.flatMap((tx) => tx.vin.filter((i) => i.address === address));
    return { funded_txo_count: funded.length, funded_txo_sum: funded.reduce((s, o) => s + o.value, 0), spent_txo_count: spent.length, spent_txo_sum: spent.reduce((s, i) => s + i.value, 0), tx_count: txs.length };
  }

  function esplora(req: FakeRequest): FakeResponse {
    const match = /^\/btc\/address\/([^/]+)(\/txs(?:\/chain(?:\/([0-9a-f]{64}))?)?)?$/.exec(req.path);
    if (!match) return { status: 404, body: 'Not Found' };
    const [, address, txsPart, lastSeen] = match;
    if (!/^(bc1|[13])/.test(address)) return { status: 400, body: 'Invalid Bitcoin address' };
    if (!txsPart) return { status: 200, body: { address, chain_stats: stats(address, true), mempool_stats: stats(address, false) } };
    const confirmed = state.btc.filter((tx) => tx.height !== null);
    if (txsPart === '/txs') return { status: 200, body: [...state.btc.filter((tx) => tx.height === null).slice(0, 50), ...confirmed.slice(0, ESPLORA_PAGE)].map(esploraTx) };
    const index = confirmed.findIndex((tx) => tx.txid === lastSeen);
    if (index < 0) return { status: 200, body: [] };
    return { status: 200, body: confirmed.slice(index + 1, index + 1 + ESPLORA_PAGE).map(esploraTx) };
  }

  const notOk = (result: string): FakeResponse => ({ status: 200, body: { status: '0', message: 'NOTOK', result } });

  function etherscan(req: FakeRequest): FakeResponse {
    const q = req.query;
    if (q.get('apikey') !== FAKE_ETHERSCAN_KEY) return notOk('Invalid API Key (#err2)|ahead');
    if (q.get('chainid') !== '1') return notOk('Missing or unsupported chainid parameter (required for v2 api)');
    if (q.get('module') !== 'account') return notOk('Error! Missing Or invalid Module name');
    const address = q.get('address') ?? '';
    if (!/^0x[0-9a-f]{40}$/i.test(address)) return notOk('Error! Invalid address format');
    if (q.get('action') === 'balance') return { status: 200, body: { status: '1', message: 'OK', result: state.ethBalance } };
    if (q.get('action') !== 'txlist') return notOk('Error! Missing Or invalid Action name');
    const start = Number(q.get('startblock') ?? '0');
    const end = Number(q.get('endblock') ?? '99999999');
    const page = Number(q.get('page') ?? '1');
    const offset = Number(q.get('offset') ?? '10000');
    if (page * offset > 10_000) return notOk('Result window is too large, PageNo x Offset size must be less than or equal to 10000');
    const sorted = state.eth
      .filter((tx) => (tx.from === address.toLowerCase() || tx.to === address.toLowerCase()) && tx.blockNumber >= start && tx.blockNumber <= end)
      .sort((a, b) => (q.get('sort') === 'desc' ? b.blockNumber - a.blockNumber : a.blockNumber - b.blockNumber));
    const items = sorted.slice((page - 1) * offset, page * offset);
    if (items.length === 0) return { status: 200, body: { status: '0', message: 'No transactions found', result: [] } };
    return {
      status: 200,
      body: {
        status: '1',
        message: 'OK',
        result: items.map((tx) => ({
          blockNumber: String(tx.blockNumber),
          timeStamp: String(tx.timeStamp),
          hash: tx.hash,
          nonce: '1',
          blockHash: fakeEthHash(`block${tx.blockNumber}`),
          transactionIndex: '0',
          from: tx.from,
          to: tx.to,
          value: tx.value,
          gas: '21000',
          gasPrice: tx.gasPrice,
          isError: tx.isError ?? '0',
          txreceipt_status: tx.isError === '1' ? '0' : '1',
          input: tx.functionName ? '0xa9059cbb' : '0x',
          contractAddress: '',
          cumulativeGasUsed: tx.gasUsed,
          gasUsed: tx.gasUsed,
          confirmations: '100',
          methodId: tx.functionName ? '0xa9059cbb' : '0x',
          functionName: tx.functionName ?? '',
        })),
      },
    };
  }

  const server = await startFakeServer((req) => {
    const intercepted = state.intercept?.(req);
    if (intercepted) return intercepted;
    if (req.method === 'GET' && req.path.startsWith('/btc/')) return esplora(req);
    if (req.method === 'GET' && req.path === '/evm/v2/api') return etherscan(req);
    return { status: 404, body: 'Not Found' };
  });
  return { ...server, state, btcBaseUrl: `${server.url}/btc`, evmBaseUrl: `${server.url}/evm/v2/api` };
}
