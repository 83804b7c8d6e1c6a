// Keccak-256 as Ethereum uses it (the original Keccak padding 0x01, not SHA3-256's 0x06): Node's
// crypto offers only the SHA-3 variant, and EIP-55 address checksums are defined over Keccak-256.
// A compact keccak-f[1600] over BigInt lanes: it hashes a 40-character address per call, so
// clarity wins over speed.

const MASK_64 = (1n << 64n) - 1n;
const RATE_BYTES = 136; // 1600 - 2 * 256 bits of capacity

const ROUND_CONSTANTS: readonly bigint[] = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];

/** Rotation offsets r[x + 5y] of the rho step. */
const ROTATIONS: readonly number[] = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

const rotl = (lane: bigint, by: number): bigint => (by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & MASK_64);

function keccakF1600(state: bigint[]): void {
  for (const roundConstant of ROUND_CONSTANTS) {
    // theta
    const columns = [0, 1, 2, 3, 4].map((x) => state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]);
    for (let x = 0; x < 5; x += 1) {
      const d = columns[(x + 4) % 5] ^ rotl(columns[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) state[x + y] ^= d;
    }
    // rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y])
    const moved = new Array<bigint>(25);
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y], ROTATIONS[x + 5 * y]);
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x += 1) state[x + y] = moved[x + y] ^ (~moved[((x + 1) % 5) + y] & MASK_64 & moved[((x + 2) % 5) + y]);
    }
    // iota
    state[0] ^= roundConstant;
  }
}

/** Keccak-256 of `input` (a string is hashed as its UTF-8 bytes), as 64 lowercase hex characters. */
export function keccak256Hex(input: Uint8Array | string): string {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const blocks = Math.floor(bytes.length / RATE_BYTES) + 1;
  const padded = new Uint8Array(blocks * RATE_BYTES);
  padded.set(bytes);
  padded[bytes.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;

  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    for (let lane = 0; lane < RATE_BYTES / 8; lane += 1) {
      let value = 0n;
      for (let b = 7; b >= 0; b -= 1) value = (value << 8n) | BigInt(padded[offset + lane * 8 + b]);
      state[lane] ^= value;
    }
    keccakF1600(state);
  }
  let hex = '';
  for (let lane = 0; lane < 4; lane += 1) {
    for (let b = 0; b < 8; b += 1) hex += Number((state[lane] >> BigInt(8 * b)) & 0xffn).toString(16).padStart(2, '0');
  }
  return hex;
}
