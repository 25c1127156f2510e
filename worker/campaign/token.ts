/**
 * Campaign tokens (docs/config.md): AES-128 in CFB mode with a 16-byte key, URL-safe base64 without
 * padding. Layout (docs/campaign-links.md):
 *
 *   token = base64url( iv[16] ‖ ciphertext[n] ‖ tag[16] )
 *   ciphertext = AES-128-CFB(key, iv, utf8(JSON payload))      — no padding, n = payload length
 *   tag = first 16 bytes of HMAC-SHA256(macKey, iv ‖ ciphertext), macKey = HMAC-SHA256(key, "lander/mac")
 *
 * CFB alone has no integrity check (a flipped ciphertext bit flips the same plaintext bit), so the tag
 * makes any change to a token fail, and the payload is still validated by schema before use.
 * Only the crypto-js modules needed are imported.
 */
import AES from 'crypto-js/aes.js';
import Base64 from 'crypto-js/enc-base64.js';
import Hex from 'crypto-js/enc-hex.js';
import Utf8 from 'crypto-js/enc-utf8.js';
import HmacSHA256 from 'crypto-js/hmac-sha256.js';
import CFB from 'crypto-js/mode-cfb.js';
import NoPadding from 'crypto-js/pad-nopadding.js';
import { fromBase64Url, toBase64Url } from '../../shared/base64url.ts';

type WordArray = ReturnType<typeof Hex.parse>;

const IV_BYTES = 16;
const TAG_BYTES = 16;
/** Longest token accepted: a campaign payload is small; anything longer is rejected unread. */
export const MAX_TOKEN_LENGTH = 2048;

// Bytes cross into crypto-js as hex: its WordArray class lives in a module that bundlers may load
// twice, so nothing here constructs crypto-js objects directly.
function bytesToWords(bytes: Uint8Array): WordArray {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return Hex.parse(hex);
}

function wordsToBytes(words: WordArray): Uint8Array {
  const hex = Hex.stringify(words);
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

function keyWords(key: string): WordArray {
  const words = Utf8.parse(key);
  if (words.sigBytes !== 16) throw new Error('The decode key must be exactly 16 bytes');
  return words;
}

function tag(key: WordArray, data: WordArray): Uint8Array {
  const macKey = HmacSHA256('lander/mac', key);
  return wordsToBytes(HmacSHA256(data, macKey)).slice(0, TAG_BYTES);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Encrypts `plaintext` into a token. `iv` is random unless given (tests use a fixed one). */
export function encryptToken(
  plaintext: string,
  key: string,
  iv: Uint8Array = crypto.getRandomValues(new Uint8Array(IV_BYTES)),
): string {
  const k = keyWords(key);
  const ciphertext = AES.encrypt(Utf8.parse(plaintext), k, {
    iv: bytesToWords(iv),
    mode: CFB,
    padding: NoPadding,
  }).ciphertext;
  const body = concat(iv, wordsToBytes(ciphertext));
  return toBase64Url(concat(body, tag(k, bytesToWords(body))));
}

/**
 * Decrypts a token to its plaintext. Anything wrong — too long, not URL-safe base64, too short,
 * altered, wrong key, not UTF-8 — logs `Decryption failed` and yields no value.
 */
export function decryptToken(token: string, key: string): string | undefined {
  try {
    if (token.length > MAX_TOKEN_LENGTH) throw new Error(`token longer than ${MAX_TOKEN_LENGTH} characters`);
    const bytes = fromBase64Url(token);
    if (!bytes || bytes.length <= IV_BYTES + TAG_BYTES) throw new Error('malformed token');
    const k = keyWords(key);
    const body = bytes.slice(0, bytes.length - TAG_BYTES);
    if (!equalBytes(tag(k, bytesToWords(body)), bytes.slice(bytes.length - TAG_BYTES))) throw new Error('bad tag');
    const ciphertext = Base64.stringify(bytesToWords(body.slice(IV_BYTES)));
    const plain = AES.decrypt(ciphertext, k, {
      iv: bytesToWords(body.slice(0, IV_BYTES)),
      mode: CFB,
      padding: NoPadding,
    });
    return Utf8.stringify(plain);
  } catch (error) {
    console.error('Decryption failed', error instanceof Error ? error.message : error);
    return undefined;
  }
}
