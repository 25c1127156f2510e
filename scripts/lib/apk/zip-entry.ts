/**
 * One file of an APK's zip, found through the central directory `readApk` located and inflated when
 * it is deflated (the two methods an APK uses). Node only: `npm run apk:upload` reads the manifest
 * with it (docs/apk-stamping.md).
 */
import { inflateRawSync } from 'node:zlib';
import { ApkError } from '../../../worker/apk/apk-error.ts';
import type { ApkLayout } from './signing-block.ts';

const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Larger than any manifest: a bound on what a forged size can make us inflate. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

/** The uncompressed bytes of the entry called `name`, or null when the zip has none. */
export function readZipEntry(
  bytes: Uint8Array,
  layout: Pick<ApkLayout, 'centralDirectoryOffset' | 'centralDirectorySize'>,
  name: string,
): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fits = (offset: number, length: number, what: string) => {
    if (offset + length > bytes.length) throw new ApkError('malformed', `${what} at ${offset} runs past the file`);
  };
  const wanted = new TextEncoder().encode(name);
  const end = layout.centralDirectoryOffset + layout.centralDirectorySize;
  for (let at = layout.centralDirectoryOffset; at < end; ) {
    fits(at, 46, 'a central directory record');
    if (view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw new ApkError('malformed', `no central directory record at ${at}`);
    }
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    fits(at + 46, nameLength, 'a file name');
    if (sameBytes(bytes.subarray(at + 46, at + 46 + nameLength), wanted)) {
      const method = view.getUint16(at + 10, true);
      const compressed = view.getUint32(at + 20, true);
      const size = view.getUint32(at + 24, true);
      const local = view.getUint32(at + 42, true);
      fits(local, 30, `${name}'s local header`);
      if (view.getUint32(local, true) !== LOCAL_SIGNATURE)
        throw new ApkError('malformed', `no local header for ${name}`);
      const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      fits(data, compressed, `${name}'s data`);
      return contents(bytes.subarray(data, data + compressed), method, size, name);
    }
    at = next;
  }
  return null;
}

function contents(data: Uint8Array, method: number, size: number, name: string): Uint8Array {
  if (size > MAX_ENTRY_BYTES) throw new ApkError('malformed', `${name} says it is ${size} bytes`);
  if (method === STORED) return data;
  if (method !== DEFLATED) throw new ApkError('malformed', `${name} is compressed with method ${method}`);
  let inflated: Uint8Array;
  try {
    inflated = new Uint8Array(inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES }));
  } catch (error) {
    throw new ApkError('malformed', `${name} does not inflate: ${error instanceof Error ? error.message : error}`);
  }
  // Garbage can inflate to something: the size the central directory gives tells it apart.
  if (inflated.length !== size) {
    throw new ApkError('malformed', `${name} inflates to ${inflated.length} bytes, not the ${size} its record gives`);
  }
  return inflated;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
