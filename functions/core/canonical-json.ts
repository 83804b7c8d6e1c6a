// JSON with object keys sorted, no spaces and undefined members dropped: one text for one value,
// whatever order its keys were built or stored in (DynamoDB keeps no map order). Used for a
// provider's request signature (connectors/aggregator_i) and to tell a changed row from a stored one.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
