/**
 * The floor the page is measured against (docs/benchmarks.md#the-floor): the bench's floor worker
 * (workers/floor.ts) answers the kept page's exact bytes and headers and does nothing else. It takes
 * them from Lander on its first request; this checks that what it answers is byte for byte and header
 * for header what Lander answers from its page cache, so a ratio to the floor compares like with like.
 */
import type { Served } from './serve.ts';

/** A page as one request got it, `Server-Timing` and the length the transfer sets aside. */
interface Answer {
  status: number;
  headers: string[];
  body: string;
}

async function answer(url: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' }, redirect: 'manual' });
  return {
    status: response.status,
    headers: [...response.headers].map(([name, value]) => `${name}: ${value}`).sort(),
    body: await response.text(),
  };
}

/**
 * Has the floor take Lander's kept answer to `path` with `headers`, and returns its size in bytes;
 * throws unless the floor then answers exactly what Lander answers from its page cache.
 */
export async function captureFloor(server: Served, path: string, headers: Record<string, string>): Promise<number> {
  // Twice: a page is kept after its first render's response.
  await answer(`${server.url}${path}`, headers);
  await answer(`${server.url}${path}`, headers);
  const floor = await answer(`${server.floorUrl}${path}`, { ...headers, 'x-floor-capture': `${server.url}${path}` });
  const kept = await answer(`${server.url}${path}`, headers);
  if (!kept.headers.some((h) => h.startsWith('server-timing: kept;desc=hit'))) {
    throw new Error(`${path} was not answered from the page cache: ${kept.headers.join('; ')}`);
  }
  if (
    floor.status !== kept.status ||
    floor.body !== kept.body ||
    floor.headers.join('\n') !== kept.headers.join('\n')
  ) {
    throw new Error(`The floor does not answer ${path} as Lander's kept page does`);
  }
  return new TextEncoder().encode(kept.body).byteLength;
}
