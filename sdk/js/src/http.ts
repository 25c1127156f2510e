/**
 * One JSON POST within a budget, told as what the SDK does next: `ok` (2xx, with the parsed body or
 * undefined), `retry` (no answer in time, a network failure, 429 or 5xx) or `drop` (any other status).
 */
import type { Clock } from './types.ts';

export type Outcome =
  | { kind: 'ok'; body: unknown }
  | { kind: 'retry'; why: string }
  | { kind: 'drop'; why: string; status: number };

export async function postJson(
  fetcher: typeof fetch,
  clock: Clock,
  url: string,
  body: unknown,
  timeoutMs: number,
): Promise<Outcome> {
  const controller = new AbortController();
  let timer: unknown;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = clock.setTimeout(() => {
      controller.abort();
      resolve({ kind: 'retry', why: `no answer in ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const request = (async (): Promise<Outcome> => {
    try {
      const res = await fetcher(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await res.text();
      if (res.status === 429 || res.status >= 500) return { kind: 'retry', why: `${res.status} ${text.slice(0, 200)}` };
      if (res.status < 200 || res.status >= 300) {
        return { kind: 'drop', why: `${res.status} ${text.slice(0, 200)}`, status: res.status };
      }
      try {
        return { kind: 'ok', body: text ? JSON.parse(text) : undefined };
      } catch {
        return { kind: 'ok', body: text };
      }
    } catch (error) {
      return { kind: 'retry', why: String(error) };
    }
  })();
  try {
    return await Promise.race([request, timeout]);
  } finally {
    clock.clearTimeout(timer);
  }
}
