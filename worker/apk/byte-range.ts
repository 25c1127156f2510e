/**
 * Which bytes of a file a request asks for (RFC 9110 §14): one `Range` of `bytes`, honoured only
 * while `If-Range` names the current ETag. A header that cannot be read, or asks for several ranges,
 * gets the whole file, as the RFC allows (docs/apk-stamping.md).
 */

export type RangeChoice =
  | { kind: 'whole' }
  | { kind: 'part'; offset: number; length: number }
  /** Answered 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' };

const SPEC = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/** The part of a `size`-byte file that `range` asks for, given `ifRange` and the file's `etag`. */
export function chooseRange(
  range: string | undefined,
  ifRange: string | undefined,
  etag: string,
  size: number,
): RangeChoice {
  if (range === undefined) return { kind: 'whole' };
  // A date, a weak tag or another tag: the file may have changed since, so it is sent whole.
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: 'whole' };
  const match = SPEC.exec(range);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    const length = Math.min(suffix, size);
    return { kind: 'part', offset: size - length, length };
  }
  const offset = Number(first);
  if (last !== '' && Number(last) < offset) return { kind: 'whole' };
  if (offset >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'part', offset, length: end - offset + 1 };
}
