/**
 * The bytes a carrier is written as, over a parent's reserved value: only that value changes, so the
 * stamped file has the parent's length and signatures (docs/apk-stamping.md). stamped-body.ts puts
 * them in place as a download streams.
 */
import { ApkError } from './apk-error.ts';

/** The pair that holds the stamp: the id Walle's readers look for (docs/apk-stamping.md). */
export const RESERVED_ID = 0x71777777;
/** The reserved value's length: a u32 length, the carrier's UTF-8 bytes, zeros. */
export const RESERVED_LENGTH = 1024;

/** The reserved value's absolute place in the parent: what a stamping writer overwrites. */
export interface ReservedRange {
  offset: number;
  length: number;
}

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
