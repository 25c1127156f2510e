/**
 * A real APK, signed v2 + v3 by apksigner with a fresh key, still verifies once reserved and once
 * stamped, and stamping changes only the reserved value (docs/apk-stamping.md). apksigner must be
 * installed (`apt-get install -y apksigner`); without it these tests fail and say so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { locateReserved, reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { readApk } from '../../scripts/lib/apk/signing-block.ts';
import { stampBytes } from '../../worker/apk/stamp.ts';
import { signedApk, verifyApk } from '../fixtures/apk.ts';

let parent: Uint8Array;
let reserved: Uint8Array;

beforeAll(() => {
  parent = signedApk({ 'classes.dex': 'dex', 'res/raw/big.bin': new Uint8Array(200_000).fill(3) });
  reserved = reserveApk(parent);
}, 60_000);

/**
 * A reserved parent with the carrier's stamp over its reserved value: the bytes the download route
 * serves (tests/worker/apk/apk-download.test.ts checks the route against the same rule).
 */
function stamped(carrier: string, from = reserved): Uint8Array {
  const copy = from.slice();
  copy.set(stampBytes(carrier), locateReserved(from).offset);
  return copy;
}

function expectVerified(report: { status: number | null; stdout: string; stderr: string }): void {
  expect(report.stderr).toBe('');
  expect(report.status).toBe(0);
  expect(report.stdout).toContain('Verified using v2 scheme (APK Signature Scheme v2): true');
  expect(report.stdout).toContain('Verified using v3 scheme (APK Signature Scheme v3): true');
}

describe('a real signed APK', () => {
  it('verifies v2 and v3 as apksigner signed it', () => {
    expect(readApk(parent).schemes).toEqual({ v2: true, v3: true });
    expectVerified(verifyApk(parent));
  });

  it('still verifies v2 and v3 once reserved', () => {
    expect(reserved.length).not.toBe(0);
    expectVerified(verifyApk(reserved));
  });

  it('still verifies v2 and v3 once stamped, at the parent’s length', () => {
    const copy = stamped('c1.陈.abcdefghijklmnop');
    expect(copy.length).toBe(reserved.length);
    expectVerified(verifyApk(copy));
  });

  it('differs from the reserved parent only inside the reserved value, which holds the carrier', () => {
    const carrier = 'carrier-1234567890';
    const copy = stamped(carrier);
    const range = locateReserved(reserved);
    const changed = [...copy.keys()].filter((i) => copy[i] !== reserved[i]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((i) => i >= range.offset && i < range.offset + range.length)).toBe(true);
    const view = new DataView(copy.buffer, copy.byteOffset);
    const length = view.getUint32(range.offset, true);
    expect(new TextDecoder().decode(copy.subarray(range.offset + 4, range.offset + 4 + length))).toBe(carrier);
  });

  it('is refused by apksigner when a signed byte changes, so the checks above can fail', () => {
    const broken = reserved.slice();
    broken[40] = (broken[40] ?? 0) ^ 0xff;
    expect(verifyApk(broken).status).not.toBe(0);
  });
});

describe('a real signed APK whose padding cannot hold the reserved pair', () => {
  // A 3,072-bit key's signatures leave 118 bytes of padding in the 4,096-byte block.
  let full: Uint8Array;
  let grown: Uint8Array;
  beforeAll(() => {
    full = signedApk({ 'classes.dex': 'dex' }, { keyBits: 3072 });
    grown = reserveApk(full);
  }, 60_000);

  it('grows the block by a page and moves the central directory after it', () => {
    const before = readApk(full);
    const after = readApk(grown);
    expect([before.block.size, after.block.size]).toEqual([4096, 8192]);
    expect(after.centralDirectoryOffset).toBe(before.centralDirectoryOffset + 4096);
  });

  it('still verifies v2 and v3 once reserved and once stamped', () => {
    expectVerified(verifyApk(grown));
    expectVerified(verifyApk(stamped('grown', grown)));
  });
});
