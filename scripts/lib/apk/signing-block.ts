/**
 * Reads an APK's layout: the End of Central Directory, the central directory and the APK Signing
 * Block just before it, with every ID-value pair at its absolute offset (docs/apk-stamping.md).
 * Pure code over bytes, run by `npm run apk:reserve`, `npm run apk:upload` and the tests, never by the
 * worker: a download reads nothing, its range was stored with the parent.
 */
import { ApkError } from '../../../worker/apk/apk-error.ts';

export const V2_ID = 0x7109871a;
export const V3_ID = 0xf05368c0;
export const V31_ID = 0x1b93ad61;
/** apksigner's padding pair: it pads the whole block to a multiple of {@link BLOCK_ALIGNMENT}. */
export const PADDING_ID = 0x42726577;
export const BLOCK_ALIGNMENT = 4096;
/** The last 16 bytes of every APK Signing Block. */
export const SIGNING_BLOCK_MAGIC = 'APK Sig Block 42';

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
/** The block's footer: its size again (u64) and the 16-byte magic. */
const FOOTER_SIZE = 24;

/** One ID-value pair; `offset` is the value's absolute offset in the file. */
export interface SigningPair {
  id: number;
  offset: number;
  length: number;
}

/** Where everything is, in absolute file offsets. */
export interface ApkLayout {
  /** The file's size. */
  size: number;
  eocdOffset: number;
  centralDirectoryOffset: number;
  centralDirectorySize: number;
  /** The whole block: its first size field to the end of the magic; `size` is a multiple of 4096 after reserving. */
  block: { offset: number; size: number; pairs: SigningPair[] };
  /** Which signature schemes the block carries (v3 counts v3.1 too); present is not verified. */
  schemes: { v2: boolean; v3: boolean };
}

/**
 * Reads the layout of an APK from its bytes. `bytes` may be only the file's tail, starting at the
 * absolute offset `start`: enough when it reaches back to the signing block, else an `ApkError`
 * `truncated` says where to start (`needFrom`).
 */
export function readApk(bytes: Uint8Array, start = 0): ApkLayout {
  const size = start + bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = (offset: number, length: number): number => {
    if (offset < start) throw new ApkError('truncated', `the bytes given start after offset ${offset}`, offset);
    if (offset + length > size) throw new ApkError('malformed', `the file ends inside a structure at ${offset}`);
    return offset - start;
  };
  const u16 = (offset: number) => view.getUint16(at(offset, 2), true);
  const u32 = (offset: number) => view.getUint32(at(offset, 4), true);
  const u64 = (offset: number, what: string): number => {
    const high = view.getUint32(at(offset, 8) + 4, true);
    if (high !== 0) throw new ApkError('malformed', `${what} at ${offset} is larger than the file`);
    return view.getUint32(at(offset, 8), true);
  };

  const eocdOffset = findEocd(bytes, start, u32, u16);
  if (eocdOffset >= ZIP64_LOCATOR_SIZE && eocdOffset - ZIP64_LOCATOR_SIZE >= start) {
    if (u32(eocdOffset - ZIP64_LOCATOR_SIZE) === ZIP64_LOCATOR_SIGNATURE) throw zip64();
  }
  const entries = u16(eocdOffset + 10);
  const centralDirectorySize = u32(eocdOffset + 12);
  const centralDirectoryOffset = u32(eocdOffset + 16);
  if (entries === 0xffff || centralDirectorySize === 0xffffffff || centralDirectoryOffset === 0xffffffff) {
    throw zip64();
  }
  if (u16(eocdOffset + 4) !== 0 || u16(eocdOffset + 6) !== 0 || u16(eocdOffset + 8) !== entries) {
    throw new ApkError('malformed', 'a multi-disk zip is not an APK');
  }
  if (centralDirectoryOffset + centralDirectorySize !== eocdOffset) {
    throw new ApkError('malformed', 'the central directory does not end where the End of Central Directory starts');
  }
  const block = readBlock(centralDirectoryOffset, bytes, start, u32, u64);
  const ids = new Set(block.pairs.map((pair) => pair.id));
  return {
    size,
    eocdOffset,
    centralDirectoryOffset,
    centralDirectorySize,
    block,
    schemes: { v2: ids.has(V2_ID), v3: ids.has(V3_ID) || ids.has(V31_ID) },
  };
}

type Read = (offset: number) => number;

/** The last EOCD whose comment length reaches exactly to the end, so a comment cannot fake one. */
function findEocd(bytes: Uint8Array, start: number, u32: Read, u16: Read): number {
  const size = start + bytes.length;
  const earliest = Math.max(start, size - EOCD_SIZE - 0xffff);
  for (let offset = size - EOCD_SIZE; offset >= earliest; offset--) {
    if (u32(offset) === EOCD_SIGNATURE && u16(offset + 20) === size - offset - EOCD_SIZE) return offset;
  }
  const needFrom = Math.max(0, size - EOCD_SIZE - 0xffff);
  if (start > needFrom) {
    throw new ApkError('truncated', 'the bytes given may start inside the zip comment', needFrom);
  }
  throw new ApkError('not-zip', 'not a zip file: no End of Central Directory record');
}

function readBlock(end: number, bytes: Uint8Array, start: number, u32: Read, u64: (o: number, w: string) => number) {
  const unsigned = new ApkError('unsigned', 'no APK Signing Block: the APK is unsigned or signed with v1 (JAR) only');
  if (end < FOOTER_SIZE + 8) throw unsigned;
  const magicAt = end - 16;
  if (magicAt < start) throw new ApkError('truncated', 'the bytes given start after the signing block', magicAt);
  const magic = String.fromCharCode(...bytes.subarray(magicAt - start, magicAt - start + 16));
  if (magic !== SIGNING_BLOCK_MAGIC) throw unsigned;
  const sizeField = u64(end - FOOTER_SIZE, 'the signing block size');
  const offset = end - sizeField - 8;
  if (sizeField < FOOTER_SIZE || offset < 0) throw new ApkError('malformed', 'the signing block size is impossible');
  if (u64(offset, 'the signing block size') !== sizeField) {
    throw new ApkError('malformed', 'the signing block’s two size fields differ');
  }
  const pairs: SigningPair[] = [];
  for (let at = offset + 8; at < end - FOOTER_SIZE; ) {
    const length = u64(at, 'a pair length');
    if (length < 4 || at + 8 + length > end - FOOTER_SIZE) {
      throw new ApkError('malformed', `the signing block pair at ${at} does not fit in the block`);
    }
    pairs.push({ id: u32(at + 8), offset: at + 12, length: length - 4 });
    at += 8 + length;
  }
  return { offset, size: end - offset, pairs };
}

function zip64(): ApkError {
  return new ApkError('zip64', 'zip64 archives are not supported (APKs larger than 4 GiB or with 65,535+ entries)');
}
