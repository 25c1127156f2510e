/** The reserved value a carrier is written as (worker/apk/stamp.ts, docs/apk-stamping.md). */
import { describe, expect, it } from 'vitest';
import { ApkError } from '../../worker/apk/apk-error.ts';
import { MAX_CARRIER_BYTES, stampBytes } from '../../worker/apk/stamp.ts';
import { apkErrorCode } from '../fixtures/apk.ts';

describe('stampBytes', () => {
  it('is the UTF-8 length as a little-endian u32, the UTF-8 bytes, then zeros, 1,024 bytes in all', () => {
    const stamp = stampBytes('c=é1');
    expect(stamp.length).toBe(1024);
    expect([...stamp.subarray(0, 9)]).toEqual([5, 0, 0, 0, 0x63, 0x3d, 0xc3, 0xa9, 0x31]);
    expect(stamp.subarray(9).every((byte) => byte === 0)).toBe(true);
  });

  it('takes a carrier of exactly 1,020 UTF-8 bytes', () => {
    const stamp = stampBytes('a'.repeat(MAX_CARRIER_BYTES));
    expect(new DataView(stamp.buffer).getUint32(0, true)).toBe(1020);
    expect(stamp[1023]).toBe(0x61);
  });

  it('refuses a carrier longer than 1,020 UTF-8 bytes, counting bytes, not characters', () => {
    expect(() => stampBytes('a'.repeat(1021))).toThrow(ApkError);
    expect(apkErrorCode(() => stampBytes('é'.repeat(511)))).toBe('carrier-too-long');
  });
});
