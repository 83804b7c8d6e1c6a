// The cost model's arithmetic (bench/cost-math.ts, prices in bench/prices.ts): units measured per
// sampled operation, scaled to a month, priced; the plans' mix; DynamoDB item sizes for storage.
import {
  asProvisioned,
  backgroundCounts,
  billableQuantities,
  biggest,
  dynamoStoredBytes,
  fillRemainder,
  lambdaGbSeconds,
  meanUnits,
  provisionedMinimumQuantities,
  priceQuantities,
  scaleToPeriod,
  sqsRequestsFor,
  totalUsd,
  tracesRecorded,
  zeroUnits,
  type RawUnits,
} from '../../bench/cost-math';
import { PRICE_REGION, PRICES, PRICES_TAKEN_ON } from '../../bench/prices';

const units = (partial: Partial<RawUnits>): RawUnits => ({ ...zeroUnits(), ...partial });

describe('pricing units', () => {
  it('multiplies each quantity by its price per unit and leaves out what was not used', () => {
    const lines = priceQuantities({ apiGatewayRequests: 2_000_000, dynamoWriteRequestUnits: 4_000_000, kmsRequests: 20_000, sqsFifoRequests: 0 });
    const byKey = Object.fromEntries(lines.map((l) => [l.key, l.usd]));
    expect(byKey.apiGatewayRequests).toBeCloseTo(2 * PRICES.apiGatewayRequests.usd, 10);
    expect(byKey.dynamoWriteRequestUnits).toBeCloseTo(4 * PRICES.dynamoWriteRequestUnits.usd, 10);
    // KMS is priced per 10,000 requests.
    expect(byKey.kmsRequests).toBeCloseTo(2 * PRICES.kmsRequests.usd, 10);
    expect(byKey.sqsFifoRequests).toBeUndefined();
    expect(totalUsd(lines)).toBeCloseTo(byKey.apiGatewayRequests + byKey.dynamoWriteRequestUnits + byKey.kmsRequests, 10);
    expect(biggest(lines, 1)[0].key).toBe('apiGatewayRequests');
  });

  it('turns measured units into billable quantities: GB of 2^30 bytes, logs stored for the retention, traces at the sampling rate', () => {
    const q = billableQuantities(units({ apiRequests: 10, logBytes: 3 * 2 ** 30, traceEntries: 1_000, transferOutBytes: 2 ** 29 }), { logRetentionMonths: 3, xrayFixedRate: 0.05 });
    expect(q.apiGatewayRequests).toBe(10);
    expect(q.wafRequests).toBe(10);
    expect(q.logsIngestedGb).toBe(3);
    expect(q.logsStoredGbMonths).toBe(9);
    expect(q.xrayTracesRecorded).toBe(50);
    expect(q.dataTransferOutGb).toBe(0.5);
  });

  it('prices the same request units as provisioned capacity-hours at the autoscaling target utilization', () => {
    const onDemand = { dynamoReadRequestUnits: 3_600_000, dynamoWriteRequestUnits: 7_200_000, apiGatewayRequests: 5 };
    const provisioned = asProvisioned(onDemand, 0.5);
    // 3.6 M reads at half utilization: 2,000 RCU-hours of capacity; 7.2 M writes: 4,000 WCU-hours.
    expect(provisioned).toEqual({ apiGatewayRequests: 5, dynamoProvisionedRcuHours: 2_000, dynamoProvisionedWcuHours: 4_000 });
    const usd = (q: Record<string, number>) => totalUsd(priceQuantities(q));
    expect(usd(provisioned as Record<string, number>) - usd({ apiGatewayRequests: 5 })).toBeCloseTo(2_000 * PRICES.dynamoProvisionedRcuHours.usd + 4_000 * PRICES.dynamoProvisionedWcuHours.usd, 10);
    // At the 70 % target a provisioned unit costs 0.41 of the same unit on demand, reads and writes alike.
    const ratio = (key: 'dynamoReadRequestUnits' | 'dynamoWriteRequestUnits') =>
      usd(asProvisioned({ [key]: 1e6 }, 0.7) as Record<string, number>) / usd({ [key]: 1e6 });
    expect(ratio('dynamoWriteRequestUnits')).toBeCloseTo(0.4127, 3);
    expect(ratio('dynamoReadRequestUnits')).toBeCloseTo(0.4127, 3);
    expect(() => asProvisioned(onDemand, 0)).toThrow(/utilization/);
    expect(() => asProvisioned(onDemand, 1.2)).toThrow(/utilization/);
    // Idle minimum: the table's reads and writes, and each index's.
    expect(provisionedMinimumQuantities({ reads: { min: 10 }, writes: { min: 10 }, indexReads: { min: 5 }, indexWrites: { min: 4 } }, 2)).toEqual({
      dynamoProvisionedRcuHours: 20 * 730,
      dynamoProvisionedWcuHours: 18 * 730,
    });
  });

  it('bills Lambda duration rounded up to the millisecond, times the configured memory', () => {
    expect(lambdaGbSeconds(12.2, 512)).toBeCloseTo(0.0065, 10);
    expect(lambdaGbSeconds(1000, 256)).toBeCloseTo(0.25, 10);
  });

  it('counts an SQS request per 64 KB chunk of a message', () => {
    expect(sqsRequestsFor(200)).toBe(1);
    expect(sqsRequestsFor(64 * 1024)).toBe(1);
    expect(sqsRequestsFor(64 * 1024 + 1)).toBe(2);
  });

  it('records the reservoir first, then the fixed rate of the rest', () => {
    expect(tracesRecorded(100, 3600)).toBe(100);
    expect(tracesRecorded(3600 + 2000, 3600)).toBe(3600 + 100);
  });

  it('lists its prices for one region and date, each with a source', () => {
    expect(PRICE_REGION).toBe('us-east-1');
    expect(PRICES_TAKEN_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const price of Object.values(PRICES)) {
      expect(price.usd).toBeGreaterThan(0);
      expect(price.source).toMatch(/^https:\/\//);
    }
  });
});

describe('scaling a sample to a month', () => {
  it('averages the samples of an operation and multiplies by its count', () => {
    const refresh = meanUnits([units({ dynamoWru: 50, lambdaInvocations: 3 }), units({ dynamoWru: 70, lambdaInvocations: 3 })]);
    const read = units({ dynamoRru: 2.5, apiRequests: 1 });
    const month = scaleToPeriod({ refresh, read }, { refresh: 1_000, read: 400 });
    expect(month.dynamoWru).toBe(60_000);
    expect(month.lambdaInvocations).toBe(3_000);
    expect(month.dynamoRru).toBe(1_000);
    expect(month.apiRequests).toBe(400);
  });

  it('refuses to price an operation that was never measured', () => {
    expect(() => scaleToPeriod({}, { refresh: 1 })).toThrow(/refresh/);
    expect(() => meanUnits([])).toThrow();
  });

  it('derives journeys, removals and scheduled refreshes from the users and the cadence', () => {
    expect(backgroundCounts({ connectedUsers: 5_000, refreshHours: 12 })).toEqual({ linkJourneys: 250, itemRemovals: 250, scheduledRefreshes: 5_000 * (730 / 12) });
  });

  it('spreads the quota left over the remainder operations in their shares, counting each one\'s metered calls', () => {
    const counts = fillRemainder(9_000, { a: 0.5, b: 0.5 }, { a: 1, b: 2 });
    expect(counts.a).toBeCloseTo(3_000, 6);
    expect(counts.b).toBeCloseTo(3_000, 6);
    expect(counts.a * 1 + counts.b * 2).toBeCloseTo(9_000, 6);
    expect(fillRemainder(-5, { a: 1 }, { a: 1 }).a).toBe(0);
  });
});

describe('DynamoDB storage', () => {
  it('counts attribute names and values plus the per-item overhead, once more for a GSI entry', () => {
    const row = { pk: 'ITEM#a', sk: 'ITEM', n: 12345, ok: true };
    // 2+6 + 2+4 + 1+(ceil(5/2)+1) + 2+1 = 22, plus 100 of overhead.
    expect(dynamoStoredBytes(row, ['gsi1pk'])).toBe(122);
    expect(dynamoStoredBytes({ ...row, gsi1pk: 'DUE#3' }, ['gsi1pk'])).toBe(2 * (122 + 6 + 5));
  });
});
