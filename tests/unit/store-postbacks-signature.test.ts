/**
 * SKAdNetwork's signed strings (docs/store-postbacks.md#skadnetwork), checked against Apple's samples
 * with Node's own ECDSA, apart from the worker's WebCrypto path; the DER reading; the key set rules.
 */
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { parseKeyTable } from '../../worker/settings.ts';
import { DEVELOPMENT_KEYS, keySetOf, PRODUCTION_KEYS } from '../../worker/store-postbacks/apple-keys.ts';
import { SkanPostbackSchema } from '../../worker/store-postbacks/contract.ts';
import { base64Bytes, rawSignatureOf } from '../../worker/store-postbacks/der-signature.ts';
import { sinceDay } from '../../worker/store-postbacks/operator-routes.ts';
import { SEPARATOR, signedString } from '../../worker/store-postbacks/skan-signature.ts';
import {
  APPLE_SKAN_KEY,
  SKAN_3_LOSS,
  SKAN_3_WIN,
  SKAN_4_COARSE,
  SKAN_4_FINE,
  SKAN_22,
} from '../fixtures/apple-postbacks.ts';

const appleKey = createPublicKey({ key: Buffer.from(APPLE_SKAN_KEY, 'base64'), format: 'der', type: 'spki' });
const stringOf = (sample: object) => signedString(v.parse(SkanPostbackSchema, sample));
const joined = (...values: string[]) => values.join(SEPARATOR);

describe('signedString', () => {
  it("rebuilds Apple's version 4 string for a web ad: source-domain in source-app-id's place", () => {
    expect(stringOf(SKAN_4_FINE)).toBe(
      joined(
        '4.0',
        'com.example',
        '5239',
        '525463029',
        '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30',
        'false',
        'example.com',
        '1',
        'true',
        '0',
      ),
    );
  });

  it('rebuilds version 3 with and without source-app-id, and 2.2 without did-win', () => {
    expect(stringOf(SKAN_3_WIN)).toBe(
      joined(
        '3.0',
        'example123.skadnetwork',
        '42',
        '525463029',
        '6aafb7a5-0170-41b5-bbe4-fe71dedf1e28',
        'true',
        '1234567891',
        '1',
        'true',
      ),
    );
    expect(stringOf(SKAN_3_LOSS)).toBe(
      joined(
        '3.0',
        'example123.skadnetwork',
        '42',
        '525463029',
        'f9ac267a-a889-44ce-b5f7-0166d11461f0',
        'true',
        '1',
        'false',
      ),
    );
    expect(stringOf(SKAN_22)).toBe(
      joined(
        '2.2',
        'com.example',
        '42',
        '525463029',
        '6aafb7a5-0170-41b5-bbe4-fe71dedf1e28',
        'true',
        '1234567891',
        '1',
      ),
    );
  });

  it('never signs the conversion values', () => {
    expect(stringOf({ ...SKAN_4_FINE, 'conversion-value': 1 })).toBe(stringOf(SKAN_4_FINE));
    expect(stringOf({ ...SKAN_4_COARSE, 'coarse-conversion-value': 'low' })).toBe(stringOf(SKAN_4_COARSE));
  });

  it("gives strings every one of Apple's samples verifies over, with Apple's key", () => {
    for (const sample of [SKAN_4_FINE, SKAN_4_COARSE, SKAN_3_WIN, SKAN_3_LOSS, SKAN_22]) {
      const text = stringOf(sample);
      expect(typeof text).toBe('string');
      const signature = Buffer.from(sample['attribution-signature'], 'base64');
      expect(verify('sha256', Buffer.from(String(text), 'utf8'), appleKey, signature), sample['transaction-id']).toBe(
        true,
      );
    }
  });

  it('refuses P-192 versions, unknown versions and a missing signed field', () => {
    expect(stringOf({ ...SKAN_22, version: '2.0' })).toMatchObject({ reason: 'unsupported-version' });
    const { version: _, ...v1 } = SKAN_22;
    expect(stringOf(v1)).toMatchObject({ reason: 'unsupported-version' });
    expect(stringOf({ ...SKAN_4_FINE, version: '5.0' })).toMatchObject({ reason: 'unsupported-version' });
    const { 'postback-sequence-index': __, ...noIndex } = SKAN_4_FINE;
    expect(stringOf(noIndex)).toEqual({
      reason: 'malformed',
      error: 'postback-sequence-index: required in a version 4.0 postback',
    });
  });
});

describe('rawSignatureOf', () => {
  it('reads DER signatures into the r ‖ s form, as Node converts them', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (let round = 0; round < 50; round++) {
      const data = Buffer.from(`round ${round}`);
      const der = sign('sha256', data, privateKey);
      const raw = rawSignatureOf(new Uint8Array(der));
      expect(raw).not.toBeNull();
      expect(verify('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(raw ?? []))).toBe(true);
    }
  });

  it('refuses bytes that are not a DER signature', () => {
    const der = new Uint8Array(Buffer.from(SKAN_4_FINE['attribution-signature'], 'base64'));
    expect(rawSignatureOf(der.subarray(0, der.length - 1))).toBeNull();
    expect(rawSignatureOf(Uint8Array.from([0x30, 0x02, 0x02, 0x00]))).toBeNull();
    expect(rawSignatureOf(Uint8Array.from([...der, 0]))).toBeNull();
    expect(base64Bytes('not base64!')).toBeNull();
  });
});

describe('keySetOf', () => {
  it("production: Apple's production keys; a configured key only replaces one of them", () => {
    const keys = keySetOf('production', {
      'skadnetwork/p256': 'NEW',
      'test/0': 'TEST',
      'apple-development-identifier/1': 'X',
    });
    expect(Object.fromEntries(keys)).toEqual({ ...PRODUCTION_KEYS, 'skadnetwork/p256': 'NEW' });
  });

  it("development: also Apple's development keys and any configured key", () => {
    const keys = keySetOf('development', { 'test/0': 'TEST' });
    expect(Object.fromEntries(keys)).toEqual({ ...PRODUCTION_KEYS, ...DEVELOPMENT_KEYS, 'test/0': 'TEST' });
  });
});

describe('sinceDay', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('reads a number of days, today included, or a day', () => {
    expect(sinceDay(undefined, now)).toBe('2026-11-20');
    expect(sinceDay('1d', now)).toBe('2026-11-26');
    expect(sinceDay('2026-11-01', now)).toBe('2026-11-01');
  });
  it('refuses what it cannot read', () => {
    expect(sinceDay('2026-13-01', now)).toHaveProperty('error');
    expect(sinceDay('367d', now)).toHaveProperty('error');
  });
});

describe('parseKeyTable', () => {
  it('reads a JSON object of strings, and ignores anything else with one log line', () => {
    expect(parseKeyTable('STORE_POSTBACK_KEYS', '{"test/0":"MFkw"}')).toEqual({ 'test/0': 'MFkw' });
    expect(parseKeyTable('STORE_POSTBACK_KEYS', undefined)).toEqual({});
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const text of ['{"test/0":1}', '["MFkw"]', '{', 'null']) {
      expect(parseKeyTable('STORE_POSTBACK_KEYS', text), text).toEqual({});
    }
    expect(error).toHaveBeenCalledTimes(4);
    error.mockRestore();
  });
});
