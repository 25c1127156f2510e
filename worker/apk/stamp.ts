/**
 * Writes a carrier into a reserved parent as it streams: only the bytes of the reserved value
 * change, so the stamped file has the parent's length and signatures (docs/apk-stamping.md).
 */
import type { ReservedRange } from './reserve.ts';
import { ApkError, RESERVED_LENGTH } from './signing-block.ts';

const LENGTH_PREFIX = 4;
/** The longest carrier, in UTF-8 bytes, that fits the reserved value after its length. */
export const MAX_CARRIER_BYTES = RESERVED_LENGTH - LENGTH_PREFIX;

/** The reserved value for a carrier: its UTF-8 length (u32 little-endian), its UTF-8 bytes, zeros. */
export function stampBytes(carrier: string): Uint8Array {
  const text = new TextEncoder().encode(carrier);
  if (text.length > MAX_CARRIER_BYTES) {
    throw new ApkError(
      'carrier-too-long',
      `the carrier is ${text.length} UTF-8 bytes; at most ${MAX_CARRIER_BYTES} fit`,
    );
  }
  const stamp = new Uint8Array(RESERVED_LENGTH);
  new DataView(stamp.buffer).setUint32(0, text.length, true);
  stamp.set(text, LENGTH_PREFIX);
  return stamp;
}

/**
 * The chunk found at `chunkOffset` of the parent, as the stamped file has it: the same chunk when
 * it misses the reserved range, else a copy with its part of the range overwritten.
 */
export function patchChunk(
  chunk: Uint8Array,
  chunkOffset: number,
  range: ReservedRange,
  stamp: Uint8Array,
): Uint8Array {
  if (stamp.length !== range.length)
    throw new RangeError(`a ${range.length}-byte range takes a ${range.length}-byte stamp`);
  const from = Math.max(chunkOffset, range.offset);
  const to = Math.min(chunkOffset + chunk.length, range.offset + range.length);
  if (from >= to) return chunk;
  const patched = chunk.slice();
  patched.set(stamp.subarray(from - range.offset, to - range.offset), from - chunkOffset);
  return patched;
}

/**
 * Patches a stream of the parent's bytes that starts at `startOffset` of the file (0 for the whole
 * file, the first byte of a `Range` request otherwise), in whatever chunks it arrives.
 */
export function stampStream(
  range: ReservedRange,
  stamp: Uint8Array,
  startOffset: number,
): TransformStream<Uint8Array, Uint8Array> {
  if (stamp.length !== range.length)
    throw new RangeError(`a ${range.length}-byte range takes a ${range.length}-byte stamp`);
  let offset = startOffset;
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(patchChunk(chunk, offset, range, stamp));
      offset += chunk.length;
    },
  });
}
