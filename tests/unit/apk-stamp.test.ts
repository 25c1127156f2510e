/** Writing a carrier into the reserved value as the parent streams (worker/apk/stamp.ts, docs/apk-stamping.md). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReservedRange } from '../../worker/apk/reserve.ts';
import { ApkError } from '../../worker/apk/signing-block.ts';
import { MAX_CARRIER_BYTES, patchChunk, stampBytes, stampStream } from '../../worker/apk/stamp.ts';

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
    let code = '';
    try {
      stampBytes('é'.repeat(511));
    } catch (error) {
      code = error instanceof ApkError ? error.code : '';
    }
    expect(code).toBe('carrier-too-long');
  });
});

const RANGE: ReservedRange = { offset: 100, length: 1024 };
const STAMP = stampBytes('x');

describe('patchChunk', () => {
  it('returns a chunk outside the range itself, uncopied', () => {
    const before = new Uint8Array(100);
    const after = new Uint8Array(50);
    expect(patchChunk(before, 0, RANGE, STAMP)).toBe(before);
    expect(patchChunk(after, 1124, RANGE, STAMP)).toBe(after);
  });

  it('overwrites only the part of a chunk inside the range, leaving the chunk given untouched', () => {
    const chunk = new Uint8Array(10).fill(9);
    const patched = patchChunk(chunk, 95, RANGE, STAMP);
    expect([...patched]).toEqual([9, 9, 9, 9, 9, 1, 0, 0, 0, 0x78]);
    expect(chunk.every((byte) => byte === 9)).toBe(true);
  });

  it('patches a chunk that starts inside the range and runs past its end', () => {
    const patched = patchChunk(
      new Uint8Array(4).fill(9),
      1122,
      { offset: 100, length: 1024 },
      stampBytes('a'.repeat(1020)),
    );
    expect([...patched]).toEqual([0x61, 0x61, 9, 9]);
  });

  it('refuses a stamp whose length differs from the range’s', () => {
    expect(() => patchChunk(new Uint8Array(1), 0, { offset: 0, length: 10 }, STAMP)).toThrow(RangeError);
  });
});

/** Streams `chunks` through `stampStream` and joins what comes out. */
async function throughStamp(chunks: Uint8Array[], range: ReservedRange, stamp: Uint8Array, start: number) {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const out: Uint8Array[] = [];
  const reader = source.pipeThrough(stampStream(range, stamp, start)).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) out.push(read.value);
  return out;
}

describe('stampStream', () => {
  it('passes chunks outside the range through as the same objects', async () => {
    const chunks = [new Uint8Array(100), new Uint8Array(1024), new Uint8Array(7)];
    const out = await throughStamp(chunks, RANGE, STAMP, 0);
    expect(out[0]).toBe(chunks[0]);
    expect(out[1]).not.toBe(chunks[1]);
    expect(out[2]).toBe(chunks[2]);
  });

  it('equals the parent with the range overwritten, sliced, for any carrier, chunking and start', async () => {
    const size = 3000;
    const parent = Uint8Array.from({ length: size }, (_, i) => (i * 7) % 256);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 255 }),
        fc.integer({ min: 0, max: size - 1024 }),
        fc.integer({ min: 0, max: size }),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 20 }),
        async (carrier, offset, start, cuts) => {
          // At most 255 code points of up to 4 UTF-8 bytes: always fits the 1,020 bytes.
          const range = { offset, length: 1024 };
          const stamp = stampBytes(carrier);
          const reference = parent.slice();
          reference.set(stamp, offset);
          const chunks: Uint8Array[] = [];
          let at = start;
          for (const cut of cuts) {
            if (at >= size) break;
            chunks.push(parent.subarray(at, Math.min(size, at + cut)));
            at += cut;
          }
          if (at < size) chunks.push(parent.subarray(at));
          const out = await throughStamp(chunks, range, stamp, start);
          expect(Buffer.concat(out)).toEqual(Buffer.from(reference.subarray(start)));
          expect(parent.subarray(offset, offset + 1024).some((byte, i) => byte !== reference[offset + i])).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
