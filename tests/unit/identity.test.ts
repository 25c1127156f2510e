import { afterEach, describe, expect, it, vi } from 'vitest';
import { cookieValue, localStore } from '../../client/browser/identity/browser-storage.ts';
import { isFingerprintId, isUuid, randomUuid, userIdCookie } from '../../shared/identity.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('id shapes', () => {
  it('accepts canonical UUIDs of any version and case, nothing else', () => {
    expect(isUuid('3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a')).toBe(true);
    expect(isUuid('3F0C4A6E-1B2D-1C3E-8F9A-0B1C2D3E4F5A')).toBe(true);
    for (const bad of [
      '',
      'not-a-uuid',
      '3f0c4a6e1b2d4c3e8f9a0b1c2d3e4f5a',
      ' 3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a',
      null,
      42,
    ]) {
      expect(isUuid(bad)).toBe(false);
    }
  });

  it('accepts FingerprintJS hashes and UUIDs as fingerprint ids, not markup or long strings', () => {
    expect(isFingerprintId('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isFingerprintId('3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a')).toBe(true);
    for (const bad of ['', 'short', '<img src=x onerror=1>', 'a'.repeat(65), null]) {
      expect(isFingerprintId(bad)).toBe(false);
    }
  });

  it('makes version 4 UUIDs, also where crypto.randomUUID is missing (plain http on a LAN address)', () => {
    expect(randomUuid()).toMatch(V4);
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => real.getRandomValues(bytes) });
    const ids = new Set(Array.from({ length: 100 }, () => randomUuid()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(V4);
  });

  it('writes the user_id cookie with Max-Age one year, Path /, Secure', () => {
    expect(userIdCookie('3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a')).toBe(
      'user_id=3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a; Max-Age=31536000; Path=/; Secure; SameSite=Lax',
    );
  });
});

describe('browser storage', () => {
  it('reads one cookie out of document.cookie', () => {
    expect(cookieValue('a=1; user_id=abc; b=2', 'user_id')).toBe('abc');
    expect(cookieValue('xuser_id=1; user_id_old=2', 'user_id')).toBeNull();
    expect(cookieValue('', 'user_id')).toBeNull();
    expect(cookieValue('user_id=a=b', 'user_id')).toBe('a=b');
  });

  it('never throws when localStorage is disabled or full', () => {
    const refuse = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    vi.stubGlobal('window', { localStorage: { getItem: refuse, setItem: refuse } });
    expect(localStore.get('user_id')).toBeNull();
    expect(() => localStore.set('user_id', 'x')).not.toThrow();
  });
});
