/**
 * URL-safe base64 without padding (RFC 4648 §5): campaign tokens, click ids and keyed hashes are
 * written this way so they go into a path or a query unchanged (docs/campaign-links.md).
 */

/** URL-safe base64 without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The last character's bits that carry no byte: 4 of them after 2 spare characters, 2 after 3.
const SPARE_BITS: Record<number, number> = { 2: 0b1111, 3: 0b11 };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Strict inverse of `toBase64Url`: any other alphabet, padding or impossible length is refused, and so
 * is a last character with spare bits set, so every byte string has exactly one spelling.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const spare = SPARE_BITS[text.length % 4];
  if (spare !== undefined && (ALPHABET.indexOf(text.at(-1) ?? 'A') & spare) !== 0) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (ch: string) => ch.charCodeAt(0));
}
