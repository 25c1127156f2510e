/** Reading an APK's layout and its signing block (scripts/lib/apk/signing-block.ts, docs/apk-stamping.md). */
import { describe, expect, it } from 'vitest';
import { readApk } from '../../scripts/lib/apk/signing-block.ts';
import { ApkError } from '../../worker/apk/apk-error.ts';
import { apkErrorCode, blockOf, craftedApk, filled, PADDING, V2, V3, withBlock, zipOf } from '../fixtures/apk.ts';

const ZIP = zipOf({ 'AndroidManifest.xml': 'x' });

describe('readApk', () => {
  it('finds the End of Central Directory, the central directory and the block before it', () => {
    const apk = craftedApk();
    const layout = readApk(apk);
    expect(layout.size).toBe(apk.length);
    expect(layout.eocdOffset).toBe(apk.length - 22);
    expect(layout.centralDirectoryOffset + layout.centralDirectorySize).toBe(layout.eocdOffset);
    expect(layout.block.offset + layout.block.size).toBe(layout.centralDirectoryOffset);
    expect(layout.block.size).toBe(4096);
  });

  it('lists the pairs in order with their values’ absolute offsets', () => {
    const apk = craftedApk();
    const { pairs } = readApk(apk).block;
    expect(pairs.map((pair) => [pair.id, pair.length])).toEqual([
      [V2, 700],
      [V3, 900],
      [PADDING, 4096 - 8 - 12 - 700 - 12 - 900 - 24 - 12],
    ]);
    const v3 = pairs[1];
    expect(v3 && apk.subarray(v3.offset, v3.offset + v3.length)).toEqual(filled(900, 3));
  });

  it('tells which of v2 and v3 the block carries', () => {
    expect(readApk(craftedApk()).schemes).toEqual({ v2: true, v3: true });
    const v2Only = withBlock(ZIP, blockOf([[V2, filled(10)]]));
    expect(readApk(v2Only).schemes).toEqual({ v2: true, v3: false });
  });

  it('counts a v3.1 signature as v3', () => {
    const v31Only = withBlock(ZIP, blockOf([[0x1b93ad61, filled(10)]]));
    expect(readApk(v31Only).schemes).toEqual({ v2: false, v3: true });
  });

  it('reads past a zip comment, even one that looks like an End of Central Directory', () => {
    const fake = `PK\u0005\u0006${'\0'.repeat(18)}`;
    const plain = readApk(craftedApk());
    const commented = readApk(craftedApk({ comment: `note ${fake} end` }));
    expect(commented.eocdOffset).toBe(plain.eocdOffset);
    expect(commented.block).toEqual(plain.block);
  });

  it('reads the layout from the file’s tail alone, at absolute offsets', () => {
    const apk = craftedApk();
    const whole = readApk(apk);
    const start = whole.block.offset - 5;
    expect(readApk(apk.subarray(start), start)).toEqual(whole);
  });

  it('says where to start when the tail does not reach back to the block', () => {
    const apk = craftedApk();
    const { block } = readApk(apk);
    const start = block.offset + 100;
    let needFrom: number | undefined;
    try {
      readApk(apk.subarray(start), start);
    } catch (error) {
      needFrom = error instanceof ApkError && error.code === 'truncated' ? error.needFrom : undefined;
    }
    expect(needFrom).toBe(block.offset);
  });

  it('refuses a file that is not a zip', () => {
    expect(apkErrorCode(() => readApk(new TextEncoder().encode('hello, not a zip at all')))).toBe('not-zip');
    expect(apkErrorCode(() => readApk(new Uint8Array(0)))).toBe('not-zip');
  });

  it('refuses a zip without a signing block as unsigned or v1-only', () => {
    expect(apkErrorCode(() => readApk(ZIP))).toBe('unsigned');
  });

  it('refuses a zip64 archive by its locator', () => {
    const locator = new Uint8Array(20);
    new DataView(locator.buffer).setUint32(0, 0x07064b50, true);
    const apk = craftedApk();
    const eocd = apk.length - 22;
    const zip64 = new Uint8Array([...apk.subarray(0, eocd), ...locator, ...apk.subarray(eocd)]);
    expect(apkErrorCode(() => readApk(zip64))).toBe('zip64');
  });

  it('refuses a zip64 archive by its saturated central directory offset', () => {
    const apk = craftedApk();
    new DataView(apk.buffer).setUint32(apk.length - 22 + 16, 0xffffffff, true);
    expect(apkErrorCode(() => readApk(apk))).toBe('zip64');
  });

  it('refuses a block whose two size fields differ', () => {
    const block = blockOf([[V2, filled(40)]], 99);
    expect(apkErrorCode(() => readApk(withBlock(ZIP, block)))).toBe('malformed');
  });

  it('refuses a pair that runs past the block', () => {
    const block = blockOf([[V2, filled(40)]]);
    new DataView(block.buffer).setUint32(8, 45, true);
    expect(apkErrorCode(() => readApk(withBlock(ZIP, block)))).toBe('malformed');
  });

  it('refuses a pair length over 4 GiB', () => {
    const block = blockOf([[V2, filled(40)]]);
    new DataView(block.buffer).setUint32(12, 1, true);
    expect(apkErrorCode(() => readApk(withBlock(ZIP, block)))).toBe('malformed');
  });

  it('refuses a block size larger than the file', () => {
    const block = blockOf([[V2, filled(40)]]);
    const size = block.length - 8 + 1_000_000;
    const view = new DataView(block.buffer);
    view.setUint32(0, size, true);
    view.setUint32(block.length - 24, size, true);
    expect(apkErrorCode(() => readApk(withBlock(ZIP, block)))).toBe('malformed');
  });

  it('refuses a central directory that does not end at the End of Central Directory', () => {
    const apk = craftedApk();
    const view = new DataView(apk.buffer);
    view.setUint32(apk.length - 22 + 12, view.getUint32(apk.length - 22 + 12, true) - 1, true);
    expect(apkErrorCode(() => readApk(apk))).toBe('malformed');
  });
});
