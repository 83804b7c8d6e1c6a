// A loopback fake of the second crypto exchange's REST API as its public documentation describes
// it: private calls are POSTs with a form body carrying a strictly increasing nonce, signed with
// API-Sign = base64(HMAC-SHA512(path + SHA256(nonce + body), base64-decoded secret)) under the
// key's permissions; answers are { error: [...], result } with HTTP 200, errors included. The
// ledger serves 50 entries a page, newest first, with `start` (exclusive) and `ofs`.
import { createHash, createHmac } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export type Permission = 'query_funds' | 'query_ledger';

export interface FakeKey {
  key: string;
  secret: string;
  permissions: Permission[];
}

export interface FakeLedgerEntry {
  id: string;
  refid: string;
  time: number;
  type: string;
  subtype: string;
  aclass: string;
  asset: string;
  amount: string;
  fee: string;
  balance: string;
}

export interface CryptoExchangeBFake extends FakeServer {
  /** Register a key the exchange honours. */
  addKey(key: FakeKey): void;
  revokeKey(key: string): void;
  /** Asset -> amount, as Balance answers. Mutate in place. */
  balances: Record<string, string>;
  /** Any order; the fake serves them newest first. Mutate in place. */
  ledger: FakeLedgerEntry[];
  /** Pair name -> last close price. Mutate in place. */
  tickers: Record<string, string>;
  /** Overrides the result of one path (hostile payload tests). */
  override(path: string, body: unknown): void;
}

const PAGE = 50;
const envelope = (result: unknown, error: string[] = []): FakeResponse => ({ status: 200, body: error.length ? { error } : { error, result } });

/** A random-looking but fixed API key pair of the exchange's shape (56-character key, 64-byte secret). */
export function makeKey(seed: string, permissions: Permission[] = ['query_funds', 'query_ledger']): FakeKey {
  const key = createHash('sha256').update(`key:${seed}`).digest('base64').replace(/=+$/, '').padEnd(56, 'K').slice(0, 56);
  const secret = createHash('sha512').update(`secret:${seed}`).digest('base64');
  return { key, secret, permissions };
}

export async function startCryptoExchangeBFake(): Promise<CryptoExchangeBFake> {
  const keys = new Map<string, FakeKey & { lastNonce: bigint }>();
  const overrides = new Map<string, unknown>();
  const state = { balances: {} as Record<string, string>, ledger: [] as FakeLedgerEntry[], tickers: {} as Record<string, string> };

  function authorize(request: FakeRequest, permission: Permission): FakeResponse | null {
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') return envelope(null, ['EGeneral:Invalid arguments']);
    const form = new URLSearchParams(request.body);
    const key = keys.get(String(request.headers['api-key'] ?? ''));
    if (!key) return envelope(null, ['EAPI:Invalid key']);
    const nonce = form.get('nonce') ?? '';
    if (!/^\d{1,19}$/.test(nonce)) return envelope(null, ['EAPI:Invalid nonce']);
    const digest = createHash('sha256').update(nonce + request.body).digest();
    const expected = createHmac('sha512', Buffer.from(key.secret, 'base64')).update(Buffer.concat([Buffer.from(request.path), digest])).digest('base64');
    if (request.headers['api-sign'] !== expected) return envelope(null, ['EAPI:Invalid signature']);
    if (BigInt(nonce) <= key.lastNonce) return envelope(null, ['EAPI:Invalid nonce']);
    key.lastNonce = BigInt(nonce);
    if (!key.permissions.includes(permission)) return envelope(null, ['EGeneral:Permission denied']);
    return null;
  }

  function ledgers(request: FakeRequest): FakeResponse {
    const form = new URLSearchParams(request.body);
    const start = form.has('start') ? Number(form.get('start')) : 0;
    const ofs = form.has('ofs') ? Number(form.get('ofs')) : 0;
    if (!Number.isInteger(start) || !Number.isInteger(ofs) || ofs < 0) return envelope(null, ['EGeneral:Invalid arguments']);
    const matching = state.ledger.filter((e) => e.time > start).sort((a, b) => b.time - a.time);
    const page = matching.slice(ofs, ofs + PAGE);
    return envelope({ ledger: Object.fromEntries(page.map(({ id, ...entry }) => [id, entry])), count: matching.length });
  }

  const server = await startFakeServer((request) => {
    if (overrides.has(request.path)) return { status: 200, body: overrides.get(request.path) };
    if (request.method === 'POST' && request.path === '/0/private/Balance') return authorize(request, 'query_funds') ?? envelope({ ...state.balances });
    if (request.method === 'POST' && request.path === '/0/private/Ledgers') return authorize(request, 'query_ledger') ?? ledgers(request);
    if (request.method === 'GET' && request.path === '/0/public/Ticker') {
      const pairs = request.query.get('pair')?.split(',') ?? Object.keys(state.tickers);
      if (pairs.some((p) => !(p in state.tickers))) return envelope(null, ['EQuery:Unknown asset pair']);
      return envelope(Object.fromEntries(pairs.map((p) => [p, { a: ['0', '1', '1.000'], b: ['0', '1', '1.000'], c: [state.tickers[p], '0.1'], v: ['1', '1'] }])));
    }
    return { status: 404, body: { error: ['EGeneral:Unknown method'] } };
  });

  return Object.assign(server, state, {
    addKey: (key: FakeKey) => void keys.set(key.key, { ...key, lastNonce: 0n }),
    revokeKey: (key: string) => void keys.delete(key),
    override: (path: string, body: unknown) => void overrides.set(path, body),
  });
}
