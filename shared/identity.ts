/**
 * The visitor's two ids (docs/identity.md): names, limits and checks both the worker's trace service
 * and the browser use, so the cookie written on one side is read the same way on the other.
 */

/** localStorage key and cookie name of the visitor id. */
export const USER_ID_KEY = 'user_id';
/** localStorage key of the fingerprint id. */
export const FINGERPRINT_ID_KEY = 'fingerprint_id';
/** One year, in seconds (docs/campaign-links.md). */
export const USER_ID_MAX_AGE = 31_536_000;

/** Where the visitor id came from: reused from this browser, minted by `/api/trace`, or made up locally. */
export type VisitorIdSource = 'stored' | 'trace' | 'temporary';
/** Where the fingerprint id came from: reused, computed by FingerprintJS, or a random fallback. */
export type FingerprintIdSource = 'stored' | 'fingerprintjs' | 'temporary';

/** Both ids as the client store holds them; `null` until the browser has resolved them. */
export interface Identity {
  visitorId: string | null;
  visitorIdSource: VisitorIdSource | null;
  fingerprintId: string | null;
  fingerprintIdSource: FingerprintIdSource | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// FingerprintJS answers 32 hex digits; a fallback is a UUID. Anything else in storage was not written by us.
const FINGERPRINT_ID = /^[0-9a-z-]{16,64}$/i;

/** True for a canonical UUID (any version): the only shape a visitor id ever has. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** True for a value that can be a fingerprint id (FingerprintJS hash or fallback UUID). */
export function isFingerprintId(value: unknown): value is string {
  return typeof value === 'string' && FINGERPRINT_ID.test(value);
}

/**
 * A random (version 4) UUID. `crypto.randomUUID` exists only in secure contexts, and a page opened
 * over plain http on a LAN address is not one, so fall back to `getRandomValues` there.
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The `user_id` cookie as the browser writes it (docs/identity.md, docs/campaign-links.md). Not HttpOnly: the browser reads
 * and writes it itself. `SameSite=Lax` matches what the trace service sets.
 */
export function userIdCookie(id: string): string {
  return `${USER_ID_KEY}=${id}; Max-Age=${USER_ID_MAX_AGE}; Path=/; Secure; SameSite=Lax`;
}
