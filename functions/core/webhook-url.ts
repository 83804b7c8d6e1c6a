// Validation of webhook endpoint URLs: what an application may ask us to call.
//
// Endpoints must be reachable public http(s) addresses: live endpoints https only; the host (every
// address it resolves to) may not be private, loopback, link-local, unspecified, multicast or
// reserved, in IPv4, IPv6 or IPv6 forms that embed an IPv4 address. Loopback is allowed only when
// the caller says so (local mode) and only for the test environment.
//
// Checking at registration is not enough against DNS rebinding: DNS may answer differently between
// the check and the connection. `resolveWebhookTarget` returns the addresses it checked, and the
// delivery connects only to those (functions/app/webhook-http.ts), never resolving the host again.
//
// URLs with control characters, bidirectional-formatting or zero-width characters are refused
// before parsing: the URL parser silently drops or percent-encodes them, so what would be stored
// and shown back would not be what is called, or would display as something else.
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import type { Environment } from '../contracts/schemas';

export const MAX_WEBHOOK_URL_LENGTH = 1000;

export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link_local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export type WebhookUrlFailureReason =
  | 'too_long'
  | 'control_characters'
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'https_required'
  | 'credentials_not_allowed'
  | 'unresolvable_host'
  | 'private_address'
  | 'loopback_address'
  | 'link_local_address'
  | 'unspecified_address'
  | 'multicast_address'
  | 'reserved_address';

export type WebhookUrlResult = { ok: true } | { ok: false; reason: WebhookUrlFailureReason };

/** A URL that passed every check, with the addresses its host resolved to (all of them checked). */
export type WebhookTarget = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: WebhookUrlFailureReason };

export interface WebhookUrlOptions {
  environment: Environment;
  /** Local mode: permit loopback hosts (test environment only). */
  allowLoopback: boolean;
  /** Host name → addresses; node:dns/promises lookup (all addresses) by default. */
  resolve?: (host: string) => Promise<string[]>;
}

const REASON: Record<Exclude<AddressClass, 'public'>, WebhookUrlFailureReason> = {
  private: 'private_address',
  loopback: 'loopback_address',
  link_local: 'link_local_address',
  unspecified: 'unspecified_address',
  multicast: 'multicast_address',
  reserved: 'reserved_address',
};

type Range = [prefix: number[], bits: number, cls: Exclude<AddressClass, 'public'>];

// IPv4 ranges that are never a legitimate public webhook destination.
const V4_RANGES: Range[] = [
  [[0, 0, 0, 0], 32, 'unspecified'],
  [[0], 8, 'reserved'], // "this network"; 0.x.y.z reaches the local host on Linux
  [[10], 8, 'private'],
  [[100, 64], 10, 'private'], // CGNAT shared space
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link_local'], // includes the 169.254.169.254 metadata service
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2], 24, 'reserved'], // TEST-NET-1
  [[192, 88, 99], 24, 'reserved'], // deprecated 6to4 relay anycast
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'reserved'], // benchmarking
  [[198, 51, 100], 24, 'reserved'], // TEST-NET-2
  [[203, 0, 113], 24, 'reserved'], // TEST-NET-3
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'], // includes 255.255.255.255
];

// IPv6 ranges (prefixes as bytes). ::, ::1 and forms that embed an IPv4 address are handled in
// classifyV6; anything outside global unicast 2000::/3 is refused there as well.
const V6_RANGES: Range[] = [
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'], // 100::/64 discard
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, 'reserved'], // benchmarking
  [[0x20, 0x01, 0x00, 0x10], 28, 'reserved'], // deprecated ORCHID
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'], // documentation
  [[0x3f, 0xff], 20, 'reserved'], // documentation (RFC 9637)
  [[0xfc], 7, 'private'], // unique local (includes AWS's fd00:ec2::254 metadata address)
  [[0xfe, 0x80], 10, 'link_local'],
  [[0xfe, 0xc0], 10, 'private'], // deprecated site-local
  [[0xff], 8, 'multicast'],
];

function inRange(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function classify(bytes: number[], ranges: Range[]): AddressClass {
  for (const [prefix, bits, cls] of ranges) if (inRange(bytes, prefix, bits)) return cls;
  return 'public';
}

function v4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** 16 bytes of a valid IPv6 literal (optionally with a dotted IPv4 tail and a zone id). */
function v6Bytes(ip: string): number[] {
  let text = ip.replace(/%.*$/, '');
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...v4Bytes(dotted[1]));
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((g: number) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The first class that is not public, so a mixed answer is judged by its worst part. */
function worst(...classes: AddressClass[]): AddressClass {
  return classes.find((c) => c !== 'public') ?? 'public';
}

function classifyV6(b: number[]): AddressClass {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const startsWith = (prefix: number[]) => prefix.every((x, i) => b[i] === x);
  const v4At = (offset: number, mask = 0) => classify(b.slice(offset, offset + 4).map((x) => x ^ mask), V4_RANGES);
  // Forms that lead to an IPv4 address are judged by that address.
  if (zero(0, 12)) {
    if (zero(12, 16)) return 'unspecified'; // ::
    if (zero(12, 15) && b[15] === 1) return 'loopback'; // ::1
    return v4At(12); // IPv4-compatible ::a.b.c.d
  }
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4At(12); // IPv4-mapped ::ffff:a.b.c.d
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4At(12); // IPv4-translated ::ffff:0:a.b.c.d
  if (startsWith([0x00, 0x64, 0xff, 0x9b]) && zero(4, 12)) return v4At(12); // NAT64 well-known 64:ff9b::/96
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215) is not globally reachable, and where the IPv4 address
  // sits depends on the prefix length its operator chose: the whole block is refused.
  if (startsWith([0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) return 'private';
  if (startsWith([0x20, 0x02])) return v4At(2); // 6to4 2002:AABB:CCDD::/48
  // Teredo 2001:0::/32: the server's IPv4 in bits 32-63, the client's (the one a relay forwards to)
  // in the last 32 bits, every bit inverted.
  if (startsWith([0x20, 0x01, 0x00, 0x00])) return worst(v4At(12, 0xff), v4At(4));
  const cls = classify(b, V6_RANGES);
  if (cls !== 'public') return cls;
  // Only global unicast is a public destination; the rest of the space is reserved or unassigned.
  return (b[0] & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** What kind of destination an IP address literal is; 'reserved' for anything that is not an IP. */
export function classifyAddress(ip: string): AddressClass {
  if (isIPv4(ip)) return classify(v4Bytes(ip), V4_RANGES);
  const bare = ip.replace(/^\[(.*)\]$/, '$1');
  if (!isIPv6(bare)) return 'reserved';
  return classifyV6(v6Bytes(bare));
}

// C0 and C1 controls and DEL, the soft hyphen, bidirectional marks, embeddings, overrides and
// isolates, zero-width characters, line and paragraph separators, invisible operators and the BOM.
const DISALLOWED_URL_CHARACTERS: Array<[first: number, last: number]> = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
];

/** The first character a webhook URL may not contain, as `U+XXXX`, with its index; null when there is none. */
export function disallowedUrlCharacter(url: string): { codePoint: string; index: number } | null {
  for (let index = 0; index < url.length; index++) {
    const code = url.charCodeAt(index);
    if (DISALLOWED_URL_CHARACTERS.some(([first, last]) => code >= first && code <= last)) {
      return { codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`, index };
    }
  }
  return null;
}

/**
 * The form of a URL that decides whether two registrations are the same endpoint: the URL parser's
 * serialisation (scheme and host lower-cased, default port dropped, IP literals normalised).
 */
export function normalizeWebhookUrl(url: string): string {
  return new URL(url).href;
}

async function defaultResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

function isLocalhostName(host: string): boolean {
  const h = host.replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export async function checkWebhookUrl(url: string, opts: WebhookUrlOptions): Promise<WebhookUrlResult> {
  const target = await resolveWebhookTarget(url, opts);
  return target.ok ? { ok: true } : target;
}

/**
 * Checks a webhook URL and returns the addresses its host resolved to. A caller that connects must
 * connect to one of these addresses: resolving the host again could answer something unchecked.
 */
export async function resolveWebhookTarget(url: string, opts: WebhookUrlOptions): Promise<WebhookTarget> {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: 'too_long' };
  if (disallowedUrlCharacter(url) !== null) return { ok: false, reason: 'control_characters' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'invalid_url' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: 'unsupported_scheme' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'credentials_not_allowed' };
  if (opts.environment === 'live' && parsed.protocol !== 'https:') return { ok: false, reason: 'https_required' };

  // The WHATWG parser already normalised the host: IPv4 in any notation (0x7f.1, 2130706433) comes
  // out dotted-decimal, IPv6 comes out bracketed and compressed.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return { ok: false, reason: 'invalid_url' };
  const loopbackAllowed = opts.allowLoopback && opts.environment === 'test';

  let addresses: string[];
  if (isIPv4(host) || isIPv6(host)) {
    addresses = [host];
  } else if (isLocalhostName(host)) {
    addresses = ['127.0.0.1']; // RFC 6761: always loopback, whatever DNS says
  } else {
    try {
      addresses = await (opts.resolve ?? defaultResolve)(host);
    } catch {
      return { ok: false, reason: 'unresolvable_host' };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable_host' };
  }

  for (const address of addresses) {
    const cls = classifyAddress(address);
    if (cls === 'public' || (cls === 'loopback' && loopbackAllowed)) continue;
    return { ok: false, reason: REASON[cls] };
  }
  return { ok: true, url: parsed, addresses };
}
