/**
 * Signed cookie values of the OpenID Connect sign-in (docs/operators.md#openid-connect): a JSON
 * payload in URL-safe base64, then its HMAC-SHA-256 under `SESSION_SECRET`, bound to what the value is
 * for (a sign-in under way, a session) and to the provider and client, so a value made for one
 * purpose or provider is refused as another. Each payload carries its own expiry (`exp`, seconds).
 * Signed, not encrypted: a value holds nothing a browser's owner may not see.
 */
import { fromBase64Url, toBase64Url } from '../../../shared/base64url.ts';
import { keptKeys } from '../../lib/kept-keys.ts';

const encoder = new TextEncoder();
// One imported key per secret for the isolate's life: importing costs more than the MAC itself.
const keys = keptKeys();

function keyOf(secret: string): Promise<CryptoKey> {
  return keys.get(secret, () =>
    crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]),
  );
}

/** What a sealed value is bound to: its purpose, and the provider and client it was made for. */
export interface SealContext {
  secret: string;
  /** `sign-in` or `session`, with the issuer and client id. */
  binding: string;
}

/** `payload` with its expiry `exp` (seconds since the epoch), signed. */
export async function seal(context: SealContext, payload: { exp: number }): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
  const mac = await crypto.subtle.sign(
    'HMAC',
    await keyOf(context.secret),
    encoder.encode(`${context.binding}.${body}`),
  );
  return `${body}.${toBase64Url(new Uint8Array(mac))}`;
}

/** Why a sealed value was refused: its signature or shape, or its expiry. */
export type Unsealed<T> = { ok: true; payload: T } | { ok: false; reason: 'tampered' | 'expired' };

/**
 * The payload of `value` when its signature holds for `context` (compared by the runtime's verify,
 * in constant time) and it has not expired at `now` (ms).
 */
export async function unseal<T extends { exp: number }>(
  context: SealContext,
  value: string,
  now = Date.now(),
): Promise<Unsealed<T>> {
  const [body, signature, ...rest] = value.split('.');
  const mac = signature === undefined ? undefined : fromBase64Url(signature);
  if (body === undefined || !mac || rest.length) return { ok: false, reason: 'tampered' };
  const signed = encoder.encode(`${context.binding}.${body}`);
  if (!(await crypto.subtle.verify('HMAC', await keyOf(context.secret), mac, signed))) {
    return { ok: false, reason: 'tampered' };
  }
  const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as T;
  return payload.exp * 1000 > now ? { ok: true, payload } : { ok: false, reason: 'expired' };
}
