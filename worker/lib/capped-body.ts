/**
 * A request's or response's body read whole only when it is small: refused by its Content-Length, or
 * by counting as it streams, past `maxBytes`, so a large or endless body is never held in memory.
 */

/** The body of `message`, or null when it is longer than `maxBytes` (the rest is then cancelled). */
export async function cappedBody(message: Request | Response, maxBytes: number): Promise<Uint8Array | null> {
  if (Number(message.headers.get('content-length') ?? 0) > maxBytes) {
    await message.body?.cancel();
    return null;
  }
  const reader = message.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
