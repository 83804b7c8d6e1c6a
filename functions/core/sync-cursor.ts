// Transactions sync cursors: opaque to callers, bound to one item (not to a token, so rotation
// keeps them valid) and tamper-evident (HMAC with a per-item secret that never leaves the server).
//
// A cursor names a position in the item's change feed:
//   base  - every change up to this sequence has been delivered to the caller
//   snap  - the snapshot the current paging session reads (== base when no session is open)
//   pos   - the feed sort key of the last entry examined in this session ('' when none)
//   at    - when the cursor was issued (ms); old mid-session cursors may outlive retained versions
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CursorState {
  itemId: string;
  base: number;
  snap: number;
  pos: string;
  at: number;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(state: CursorState, secret: string): string {
  const payload = b64url(Buffer.from(JSON.stringify([state.itemId, state.base, state.snap, state.pos, state.at])));
  return `${payload}.${b64url(mac(secret, payload))}`;
}

/** Returns null for anything that is not a cursor this item issued, unmodified. */
export function decodeCursor(cursor: string, itemId: string, secret: string): CursorState | null {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  // Compare the canonical encoding, not decoded bytes: base64 decoders ignore trailing junk.
  const expected = Buffer.from(b64url(mac(secret, payload)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 5) return null;
  const [id, base, snap, pos, at] = fields;
  if (id !== itemId || typeof pos !== 'string' || ![base, snap, at].every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
  if (base > snap) return null;
  return { itemId: id, base, snap, pos, at };
}
