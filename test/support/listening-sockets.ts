// The TCP sockets listening on a port, read from /proc/net/tcp and /proc/net/tcp6 (what `ss -ltn`
// reads), so a test can tell "listens on loopback" from "listens on every interface".
import { readFileSync } from 'node:fs';

const LISTEN = '0A';

/** /proc writes an IPv4 address as one little-endian 32-bit word in hex. */
function ipv4(hex: string): string {
  return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
}

/** /proc writes an IPv6 address as four little-endian 32-bit words in hex. */
function ipv6(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < 4; word++) {
    const chunk = hex.slice(word * 8, word * 8 + 8);
    bytes.push(...[6, 4, 2, 0].map((i) => parseInt(chunk.slice(i, i + 2), 16)));
  }
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

/** Local addresses of the sockets listening on `port` (IPv4 and IPv6), e.g. ["127.0.0.1"]. */
export function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const [file, parse] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      continue; // no IPv6 in this kernel
    }
    for (const line of table.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4 || fields[3] !== LISTEN) continue;
      const [address, portHex] = fields[1].split(':');
      if (parseInt(portHex, 16) === port) out.push(parse(address));
    }
  }
  return out;
}

export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '0:0:0:0:0:0:0:1' || address.startsWith('::ffff:127.');
}
