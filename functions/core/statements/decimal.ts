// Exact decimal arithmetic on the amount strings statements carry (no floating point: a sum must
// come out to the cent however many rows it adds).

/** Exact sum of two decimal strings. */
export function addDecimals(left: string, right: string): string {
  const scale = Math.max(fractionDigits(left), fractionDigits(right));
  const total = toScaled(left, scale) + toScaled(right, scale);
  return fromScaled(total, scale);
}

function fractionDigits(value: string): number {
  const point = value.indexOf('.');
  return point < 0 ? 0 : value.length - point - 1;
}

function toScaled(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace(/^[-+]/, '').split('.');
  const digits = BigInt(`${whole || '0'}${fraction.padEnd(scale, '0')}`);
  return negative ? -digits : digits;
}

function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
