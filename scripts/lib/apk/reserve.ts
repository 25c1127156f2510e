/**
 * Prepares a parent APK for stamping: one more ID-value pair in its APK Signing Block, holding
 * {@link RESERVED_LENGTH} zero bytes, and finds that value again (docs/apk-stamping.md). Node only:
 * `npm run apk:reserve` and `npm run apk:upload` run it once per parent, the worker never.
 */
import { ApkError } from '../../../worker/apk/apk-error.ts';
import { RESERVED_ID, RESERVED_LENGTH, type ReservedRange } from '../../../worker/apk/stamp.ts';
import {
  type ApkLayout,
  BLOCK_ALIGNMENT,
  PADDING_ID,
  readApk,
  SIGNING_BLOCK_MAGIC,
  type SigningPair,
} from './signing-block.ts';

/** A pair's 8-byte length and 4-byte id. */
const PAIR_HEADER = 12;
const MAGIC = new TextEncoder().encode(SIGNING_BLOCK_MAGIC);

/**
 * Returns a copy of a v2/v3-signed APK with the reserved pair added: the signed parts (the entries,
 * the central directory, the End of Central Directory but for its offset) are unchanged, so the
 * signatures still verify. An APK already reserved and still blank comes back as it is; one whose
 * reserved value holds something (a stamped download, a Walle channel) is refused.
 */
export function reserveApk(bytes: Uint8Array): Uint8Array {
  const parent = readApk(bytes);
  requireV2OrV3(parent);
  const existing = parent.block.pairs.find((pair) => pair.id === RESERVED_ID);
  if (existing) {
    if (
      existing.length === RESERVED_LENGTH &&
      isBlank(bytes.subarray(existing.offset, existing.offset + existing.length))
    ) {
      return bytes.slice();
    }
    throw new ApkError('already-stamped', 'the APK already carries a 0x71777777 value: reserve the unstamped parent');
  }
  const kept = parent.block.pairs.filter((pair) => pair.id !== PADDING_ID);
  const block = writeBlock(bytes, kept);
  const { offset, size } = parent.block;
  const moved = parent.centralDirectoryOffset + block.length - size;
  if (moved >= 0xffffffff) throw new ApkError('zip64', 'the reserved APK would need zip64 offsets');

  const out = new Uint8Array(bytes.length + block.length - size);
  out.set(bytes.subarray(0, offset));
  out.set(block, offset);
  out.set(bytes.subarray(parent.centralDirectoryOffset), offset + block.length);
  const eocd = out.length - (parent.size - parent.eocdOffset);
  new DataView(out.buffer).setUint32(eocd + 16, moved, true);
  checkReserved(bytes, parent, out);
  return out;
}

/** The reserved value's range, from a file's bytes (or its tail starting at `start`) or a layout read before. */
export function locateReserved(source: Uint8Array | ApkLayout, start = 0): ReservedRange {
  const layout = source instanceof Uint8Array ? readApk(source, start) : source;
  const pair = layout.block.pairs.find((candidate) => candidate.id === RESERVED_ID);
  if (!pair) throw new ApkError('not-reserved', 'the APK has no reserved value: run `npm run apk:reserve` on it');
  if (pair.length !== RESERVED_LENGTH) {
    throw new ApkError('not-reserved', `the 0x71777777 value is ${pair.length} bytes, not ${RESERVED_LENGTH}`);
  }
  return { offset: pair.offset, length: pair.length };
}

/**
 * The reserved range of a parent ready to be stamped (what `npm run apk:upload` stores): signed v2 or
 * v3, reserved, its value still blank.
 */
export function locateBlankReserved(bytes: Uint8Array): ReservedRange {
  const layout = readApk(bytes);
  requireV2OrV3(layout);
  const range = locateReserved(layout);
  if (!isBlank(bytes.subarray(range.offset, range.offset + range.length))) {
    throw new ApkError('already-stamped', 'the reserved value is not blank: use the parent, not a stamped copy');
  }
  return range;
}

function requireV2OrV3(layout: ApkLayout): void {
  if (!layout.schemes.v2 && !layout.schemes.v3) {
    throw new ApkError('unsigned', 'the APK Signing Block has no v2 or v3 signature');
  }
}

/** The new block: the kept pairs, the reserved one, and apksigner's padding pair last. */
function writeBlock(bytes: Uint8Array, kept: SigningPair[]): Uint8Array {
  const pairsSize = kept.reduce((sum, pair) => sum + PAIR_HEADER + pair.length, PAIR_HEADER + RESERVED_LENGTH);
  const unpadded = 8 + pairsSize + 8 + MAGIC.length;
  // As apksigner does: pad to the alignment, a whole extra page when the gap cannot hold a pair.
  let padding = (BLOCK_ALIGNMENT - (unpadded % BLOCK_ALIGNMENT)) % BLOCK_ALIGNMENT;
  if (padding > 0 && padding < PAIR_HEADER) padding += BLOCK_ALIGNMENT;
  const block = new Uint8Array(unpadded + padding);
  const view = new DataView(block.buffer);
  const sizeField = block.length - 8;
  view.setUint32(0, sizeField, true);
  let at = 8;
  const pair = (id: number, value: Uint8Array | number) => {
    const length = typeof value === 'number' ? value : value.length;
    view.setUint32(at, length + 4, true);
    view.setUint32(at + 8, id, true);
    if (typeof value !== 'number') block.set(value, at + PAIR_HEADER);
    at += PAIR_HEADER + length;
  };
  for (const { id, offset, length } of kept) pair(id, bytes.subarray(offset, offset + length));
  pair(RESERVED_ID, RESERVED_LENGTH);
  if (padding > 0) pair(PADDING_ID, padding - PAIR_HEADER);
  view.setUint32(at, sizeField, true);
  block.set(MAGIC, at + 8);
  return block;
}

/** Reads the result back: the same pairs and bytes around the block, a blank reserved value, an aligned block. */
function checkReserved(bytes: Uint8Array, parent: ApkLayout, out: Uint8Array): void {
  const fail = (what: string): never => {
    throw new Error(`reserveApk: the result does not read back (${what})`);
  };
  const result = readApk(out);
  const range = locateReserved(result);
  if (!isBlank(out.subarray(range.offset, range.offset + range.length))) fail('reserved value not blank');
  if (result.block.offset !== parent.block.offset || result.block.size % BLOCK_ALIGNMENT !== 0) fail('block place');
  if (result.centralDirectoryOffset !== result.block.offset + result.block.size) fail('central directory offset');
  if (!same(out.subarray(0, result.block.offset), bytes.subarray(0, parent.block.offset))) fail('entries');
  const tail = (file: Uint8Array, layout: ApkLayout) =>
    file.subarray(layout.centralDirectoryOffset, layout.eocdOffset + 16);
  if (!same(tail(out, result), tail(bytes, parent))) fail('central directory');
  if (!same(out.subarray(result.eocdOffset + 20), bytes.subarray(parent.eocdOffset + 20))) fail('comment');
  const values = (file: Uint8Array, layout: ApkLayout) =>
    layout.block.pairs
      .filter((pair) => pair.id !== PADDING_ID && pair.id !== RESERVED_ID)
      .map((pair) => [pair.id, file.subarray(pair.offset, pair.offset + pair.length)] as const);
  const before = values(bytes, parent);
  const after = values(out, result);
  if (
    before.length !== after.length ||
    before.some(([id, value], i) => after[i]?.[0] !== id || !same(value, after[i]?.[1] ?? new Uint8Array()))
  ) {
    fail('pairs');
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isBlank(value: Uint8Array): boolean {
  return value.every((byte) => byte === 0);
}
