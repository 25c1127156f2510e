import { createCipheriv, createDecipheriv } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromBase64Url, toBase64Url } from '../../shared/base64url.ts';
import { decryptToken, encryptToken, MAX_TOKEN_LENGTH } from '../../worker/campaign/token.ts';

const KEY = 'LanderDevKey2026';
const IV = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
const PAYLOAD = '{"channel":"spring","inviter":"Ann"}';

function expectFailure(token: string, key = KEY): void {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(decryptToken(token, key)).toBeUndefined();
  expect(error).toHaveBeenCalledWith('Decryption failed', expect.anything());
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('campaign tokens', () => {
  it('round-trips a payload', () => {
    expect(decryptToken(encryptToken(PAYLOAD, KEY), KEY)).toBe(PAYLOAD);
  });

  it('round-trips non-ASCII text', () => {
    const text = '{"inviter":"小明 \u2028 👋"}';
    expect(decryptToken(encryptToken(text, KEY), KEY)).toBe(text);
  });

  it('uses a fresh random IV for every token', () => {
    expect(encryptToken(PAYLOAD, KEY)).not.toBe(encryptToken(PAYLOAD, KEY));
  });

  it("lays the token out as iv ‖ AES-128-CFB ciphertext ‖ tag, matching Node's aes-128-cfb", () => {
    const bytes = fromBase64Url(encryptToken(PAYLOAD, KEY, IV)) ?? new Uint8Array();
    expect(bytes.length).toBe(16 + PAYLOAD.length + 16);
    expect(Buffer.from(bytes.slice(0, 16))).toEqual(Buffer.from(IV));
    const cipher = createCipheriv('aes-128-cfb', Buffer.from(KEY), IV);
    const expected = Buffer.concat([cipher.update(PAYLOAD, 'utf8'), cipher.final()]);
    expect(Buffer.from(bytes.slice(16, 16 + PAYLOAD.length))).toEqual(expected);
    const decipher = createDecipheriv('aes-128-cfb', Buffer.from(KEY), IV);
    const plain = Buffer.concat([decipher.update(bytes.slice(16, 16 + PAYLOAD.length)), decipher.final()]);
    expect(plain.toString('utf8')).toBe(PAYLOAD);
  });

  it('decrypts a fixed vector', () => {
    const token = encryptToken(PAYLOAD, KEY, IV);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).toBe(encryptToken(PAYLOAD, KEY, IV));
    expect(decryptToken(token, KEY)).toBe(PAYLOAD);
  });

  it('is URL-safe base64 without padding', () => {
    const token = encryptToken('x'.repeat(61), KEY);
    expect(token).not.toMatch(/[+/=]/);
  });

  it('yields no value for a wrong key', () => {
    expectFailure(encryptToken(PAYLOAD, KEY), 'AnotherKey123456');
  });

  it('yields no value when any single bit is flipped', () => {
    const bytes = fromBase64Url(encryptToken(PAYLOAD, KEY)) ?? new Uint8Array();
    for (let i = 0; i < bytes.length; i += 7) {
      const copy = bytes.slice();
      copy[i] = (copy[i] ?? 0) ^ 0x01;
      expectFailure(toBase64Url(copy));
    }
  });

  it('yields no value for a truncated token', () => {
    const token = encryptToken(PAYLOAD, KEY);
    expectFailure(token.slice(0, -4));
    expectFailure(token.slice(0, 20));
  });

  it('yields no value for text that is not base64', () => {
    expectFailure('not a token!');
    expectFailure('%E0%A4%A');
  });

  it('yields no value for padded base64', () => {
    expectFailure(`${encryptToken(PAYLOAD, KEY)}==`);
  });

  it('has one spelling: a last character with spare bits set is refused', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 32 bytes of IV and tag: payloads of 2 and 3 bytes leave 4 and 2 spare bits in the last character.
    for (const payload of ['{}', '"a"']) {
      const token = encryptToken(payload, KEY, IV);
      const last = alphabet.indexOf(token.at(-1) ?? '');
      const spare = token.length % 4 === 2 ? 0b1111 : 0b11;
      expect(last & spare).toBe(0);
      const spellings = Array.from({ length: spare + 1 }, (_, bits) => token.slice(0, -1) + alphabet[last | bits]);
      expect(new Set(spellings).size).toBe(spare + 1);
      expect(decryptToken(token, KEY)).toBe(payload);
      for (const other of spellings.slice(1)) {
        expect(fromBase64Url(other)).toBeUndefined();
        expectFailure(other);
      }
    }
  });

  it('rejects a 100 KB token unread', () => {
    expectFailure('A'.repeat(100_000));
    expect(MAX_TOKEN_LENGTH).toBeLessThan(100_000);
  });

  it('refuses a key that is not 16 bytes', () => {
    expectFailure(encryptToken(PAYLOAD, KEY), 'short');
  });
});
