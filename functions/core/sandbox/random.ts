// Deterministic randomness for the sandbox simulator: a string hash (cyrb128) and a PRNG seeded
// from it (sfc32). The generator, the refresh simulator and the product simulators share these,
// so the same seed string gives the same store numbers, cities and ids everywhere.

export function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Up to 32 lower-case hex characters derived from `str`; `len` of them are returned. */
export function hashHex(str: string, len = 24): string {
  return cyrb128(str)
    .map((n) => n.toString(16).padStart(8, '0'))
    .join('')
    .slice(0, len);
}

/** Uniform in [0, 1) from a string. */
export function unitHash(str: string): number {
  return cyrb128(str)[0] / 4294967296;
}

/** Picks a key with probability proportional to its weight. */
export function weightedPick<K>(r: Rng, weights: ReadonlyArray<readonly [K, number]>): K {
  let total = 0;
  for (const [, w] of weights) total += w;
  let x = r.next() * total;
  for (const [k, w] of weights) {
    x -= w;
    if (x < 0) return k;
  }
  return weights[0][0];
}

export const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(seed);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Fisher-Yates on a copy. */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** n digits, the first never 0 (store numbers, references). */
  digits(n: number): string {
    let s = String(1 + Math.floor(this.next() * 9));
    while (s.length < n) s += String(Math.floor(this.next() * 10));
    return s;
  }

  /** n digits, any of them may be 0 (phone and postal code tails). */
  anyDigits(n: number): string {
    let s = '';
    while (s.length < n) s += String(Math.floor(this.next() * 10));
    return s;
  }

  /** n characters from ALNUM (no I or O). */
  code(n: number): string {
    let s = '';
    while (s.length < n) s += ALNUM[Math.floor(this.next() * ALNUM.length)];
    return s;
  }
}
