/**
 * Keyed hashes (HMAC-SHA-256 with a secret salt): what attribution stores in place of an address, a
 * network or an id (docs/attribution.md), and the funnel's daily visitor hash (docs/operators.md), so
 * nothing stored can be read back or looked up without the secret.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import { keptKeys } from './kept-keys.ts';

const encoder = new TextEncoder();
// One imported key per salt for the isolate's life: importing costs more than the hash itself.
const keys = keptKeys();

function keyOf(salt: string): Promise<CryptoKey> {
  return keys.get(salt, () =>
    crypto.subtle.importKey('raw', encoder.encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
  );
}

/** The keyed hash of `text` under `salt`, 128 bits in URL-safe base64 (22 characters). */
export async function keyedHash(salt: string, text: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await keyOf(salt), encoder.encode(text));
  return toBase64Url(new Uint8Array(mac, 0, 16));
}

/** The first `length` bytes of the HMAC-SHA-256 of `bytes` under `salt`: a tag a short id can carry. */
export async function keyedTag(salt: string, bytes: Uint8Array<ArrayBuffer>, length: number): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign('HMAC', await keyOf(salt), bytes);
  return new Uint8Array(mac, 0, length);
}
