/**
 * The body of a stamped download (docs/apk-stamping.md): bytes `[offset, offset + length)` of the
 * stamped file, made of at most three pieces — the parent's bytes before the reserved value, the
 * stamp's bytes for the part of the value asked for, the parent's bytes after it. The parent's pieces
 * are R2 bodies piped into the response by the runtime itself, never chunk by chunk through
 * JavaScript (which cost three quarters of the throughput: docs/benchmarks.md); the stamp replaces
 * the whole reserved value, so no parent byte inside it is read.
 */
import type { ReservedRange } from './stamp.ts';

/** Reads `length` bytes of the parent from `offset`; rejects when the parent is gone or replaced. */
export type ReadParent = (offset: number, length: number) => Promise<ReadableStream<Uint8Array>>;

/** A `[from, to)` slice; empty when `to <= from`. */
type Span = readonly [from: number, to: number];

/** The stamped bytes `[offset, offset + length)`, streamed with a fixed length. */
export function stampedBody(
  read: ReadParent,
  { offset, length }: { offset: number; length: number },
  range: ReservedRange,
  stamp: Uint8Array,
): ReadableStream<Uint8Array> {
  if (stamp.length !== range.length)
    throw new RangeError(`a ${range.length}-byte range takes a ${range.length}-byte stamp`);
  const end = offset + length;
  const rangeEnd = range.offset + range.length;
  const before: Span = [offset, Math.min(end, range.offset)];
  const inside: Span = [Math.max(offset, range.offset), Math.min(end, rangeEnd)];
  const after: Span = [Math.max(offset, rangeEnd), end];
  const { readable, writable } = new FixedLengthStream(length);

  const copy = async ([from, to]: Span) => {
    if (to > from) await (await read(from, to - from)).pipeTo(writable, { preventClose: true });
  };
  const write = async () => {
    await copy(before);
    if (inside[1] > inside[0]) {
      const writer = writable.getWriter();
      await writer.write(stamp.slice(inside[0] - range.offset, inside[1] - range.offset));
      writer.releaseLock();
    }
    await copy(after);
    await writable.close();
  };
  // The response streams while this runs; a failure ends the download short, and the client's
  // resumed request (If-Range) gets the file again whole if the parent changed.
  write().catch((error: unknown) => {
    console.error('Stamped download failed mid-stream', error);
    writable.abort(error).catch(() => {});
  });
  return readable;
}
