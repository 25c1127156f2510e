/**
 * Standard Webhooks signing (docs/webhooks.md): a secret `whsec_<base64 of 24 random bytes>`, and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with
 * the secret's decoded bytes, so a receiver verifies with the `standardwebhooks` library of its language.
 * While a rotated secret overlaps the new one, each message carries one signature per secret,
 * space-separated (`v1,<new> v1,<old>`), as the specification allows: a receiver that holds either verifies.
 */
import { keptKeys } from '../lib/kept-keys.ts';

const PREFIX = 'whsec_';
const encoder = new TextEncoder();

const toBase64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));

/** A fresh signing secret, `whsec_` and 24 random bytes in standard base64. */
export function newSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(24)));
}

// One imported key per secret for the isolate's life (a batch signs many messages with few secrets).
const keys = keptKeys(256);

function keyOf(secret: string): Promise<CryptoKey> {
  return keys.get(secret, () => {
    const raw = Uint8Array.from(atob(secret.slice(PREFIX.length)), (ch) => ch.charCodeAt(0));
    return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  });
}

/**
 * The headers that sign `body` as message `id` sent at `timestamp` (seconds since the epoch), with
 * `secret` and, during a rotation's overlap, with each of `others` too.
 */
export async function signatureHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  others: readonly string[] = [],
): Promise<Record<string, string>> {
  const content = encoder.encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    [secret, ...others].map(async (key) => {
      const mac = await crypto.subtle.sign('HMAC', await keyOf(key), content);
      return `v1,${toBase64(new Uint8Array(mac))}`;
    }),
  );
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}
