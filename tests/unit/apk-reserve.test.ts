/** Reserving the stamp's place in a parent APK and finding it again (scripts/lib/apk/reserve.ts, docs/apk-stamping.md). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateBlankReserved, locateReserved, reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { type ApkLayout, readApk } from '../../scripts/lib/apk/signing-block.ts';
import {
  apkErrorCode,
  blockOf,
  craftedApk,
  filled,
  PADDING,
  RESERVED,
  V2,
  V3,
  withBlock,
  zipOf,
} from '../fixtures/apk.ts';

const ZIP = zipOf({ 'AndroidManifest.xml': 'x', 'a.txt': 'hello' });

/** The pairs' ids and values, padding left out. */
function values(apk: Uint8Array, layout: ApkLayout = readApk(apk)) {
  return layout.block.pairs
    .filter((pair) => pair.id !== PADDING)
    .map((pair) => [pair.id, [...apk.subarray(pair.offset, pair.offset + pair.length)]]);
}

describe('reserveApk', () => {
  it('adds a 1,024-byte blank pair with id 0x71777777 after the signatures', () => {
    const parent = craftedApk();
    const reserved = reserveApk(parent);
    expect(values(reserved)).toEqual([...values(parent), [RESERVED, Array(1024).fill(0)]]);
  });

  it('takes the room from the padding pair, keeping the block at 4,096 bytes', () => {
    const reserved = readApk(reserveApk(craftedApk()));
    expect(reserved.block.size).toBe(4096);
    expect(reserved.block.pairs.at(-1)?.id).toBe(PADDING);
  });

  it('grows the block by a page when the padding has no room, and moves the central directory', () => {
    // 8 + (12 + 3500) + (12 + 540) + 24 = 4096: 552 bytes of padding cannot take 1,036.
    const parent = withBlock(
      ZIP,
      blockOf([
        [V2, filled(3500)],
        [PADDING, new Uint8Array(540)],
      ]),
    );
    const before = readApk(parent);
    const reserved = reserveApk(parent);
    const after = readApk(reserved);
    expect(before.block.size).toBe(4096);
    expect(after.block.size).toBe(8192);
    expect(after.centralDirectoryOffset).toBe(after.block.offset + 8192);
    expect(after.centralDirectoryOffset).toBe(before.centralDirectoryOffset + 4096);
    expect(reserved.subarray(after.centralDirectoryOffset, after.eocdOffset + 16)).toEqual(
      parent.subarray(before.centralDirectoryOffset, before.eocdOffset + 16),
    );
  });

  it('adds a whole page of padding when the gap is too small for a pair, as apksigner does', () => {
    // 8 + (12 + 3011) + (12 + 1024) + 24 = 4091: a 5-byte gap cannot hold a 12-byte pair.
    const reserved = readApk(reserveApk(withBlock(ZIP, blockOf([[V2, filled(3011)]]))));
    expect(reserved.block.size).toBe(8192);
    expect(reserved.block.pairs.at(-1)).toMatchObject({ id: PADDING, length: 4096 + 5 - 12 });
  });

  it('adds no padding pair when the block already ends on a page', () => {
    // 8 + (12 + 3016) + (12 + 1024) + 24 = 4096.
    const reserved = readApk(reserveApk(withBlock(ZIP, blockOf([[V2, filled(3016)]]))));
    expect(reserved.block.size).toBe(4096);
    expect(reserved.block.pairs.map((pair) => pair.id)).toEqual([V2, RESERVED]);
  });

  it('keeps a zip comment', () => {
    const parent = craftedApk({ comment: 'built by CI' });
    const reserved = reserveApk(parent);
    expect(new TextDecoder().decode(reserved.subarray(-11))).toBe('built by CI');
    expect(readApk(reserved).eocdOffset).toBe(reserved.length - 22 - 11);
  });

  it('keeps the pairs, an aligned block and every byte outside the block, for any signature sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6000 }), { minLength: 1, maxLength: 4 }), (lengths) => {
        const pairs = lengths.map((length, i): [number, Uint8Array] => [i === 0 ? V3 : 0x1000 + i, filled(length, i)]);
        const parent = withBlock(ZIP, blockOf(pairs));
        const before = readApk(parent);
        const reserved = reserveApk(parent);
        const after = readApk(reserved);
        expect(after.block.size % 4096).toBe(0);
        expect(values(reserved, after)).toEqual([...values(parent, before), [RESERVED, Array(1024).fill(0)]]);
        expect(reserved.subarray(0, after.block.offset)).toEqual(parent.subarray(0, before.block.offset));
      }),
      { numRuns: 60 },
    );
  });

  it('returns an APK already reserved and still blank as it is', () => {
    const reserved = reserveApk(craftedApk());
    expect(reserveApk(reserved)).toEqual(reserved);
  });

  it('refuses an APK whose reserved value holds something', () => {
    const stamped = reserveApk(craftedApk());
    stamped[locateReserved(stamped).offset] = 7;
    expect(apkErrorCode(() => reserveApk(stamped))).toBe('already-stamped');
  });

  it('refuses a signing block with neither a v2 nor a v3 signature', () => {
    expect(apkErrorCode(() => reserveApk(withBlock(ZIP, blockOf([[PADDING, new Uint8Array(100)]]))))).toBe('unsigned');
  });

  it('refuses an unsigned zip', () => {
    expect(apkErrorCode(() => reserveApk(ZIP))).toBe('unsigned');
  });
});

describe('locateReserved', () => {
  it('gives the reserved value’s absolute offset and length', () => {
    const reserved = reserveApk(craftedApk());
    const range = locateReserved(reserved);
    const pair = readApk(reserved).block.pairs.find((candidate) => candidate.id === RESERVED);
    expect(range).toEqual({ offset: pair?.offset, length: 1024 });
    expect(new DataView(reserved.buffer).getUint32(range.offset - 4, true)).toBe(RESERVED);
  });

  it('finds the same range from the file’s tail or from a layout read before', () => {
    const reserved = reserveApk(craftedApk());
    const range = locateReserved(reserved);
    const start = readApk(reserved).block.offset;
    expect(locateReserved(reserved.subarray(start), start)).toEqual(range);
    expect(locateReserved(readApk(reserved))).toEqual(range);
  });

  it('refuses an APK that was never reserved', () => {
    expect(apkErrorCode(() => locateReserved(craftedApk()))).toBe('not-reserved');
  });

  it('refuses a 0x71777777 value of another length', () => {
    const walle = withBlock(
      ZIP,
      blockOf([
        [V3, filled(50)],
        [RESERVED, new TextEncoder().encode('{"channel":"a"}')],
      ]),
    );
    expect(apkErrorCode(() => locateReserved(walle))).toBe('not-reserved');
  });
});

describe('locateBlankReserved', () => {
  it('gives the range of a reserved parent whose value is blank', () => {
    const reserved = reserveApk(craftedApk());
    expect(locateBlankReserved(reserved)).toEqual(locateReserved(reserved));
  });

  it('refuses a stamped copy', () => {
    const stamped = reserveApk(craftedApk());
    stamped[locateReserved(stamped).offset] = 7;
    expect(apkErrorCode(() => locateBlankReserved(stamped))).toBe('already-stamped');
  });

  it('refuses an APK that was never reserved', () => {
    expect(apkErrorCode(() => locateBlankReserved(craftedApk()))).toBe('not-reserved');
  });

  it('refuses a signing block with neither a v2 nor a v3 signature', () => {
    const unsigned = withBlock(ZIP, blockOf([[PADDING, new Uint8Array(100)]]));
    expect(apkErrorCode(() => locateBlankReserved(unsigned))).toBe('unsigned');
  });
});
