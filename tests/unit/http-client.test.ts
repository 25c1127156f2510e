import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, HttpError } from '../../client/app/http-client.ts';
import { fetchAnswering, json, networkError, status } from './fakes.ts';

const URL = 'https://api.example/thing';
/** The statuses docs/builds.md retries, written out: the client is checked against the doc, not its own list. */
const RETRIED = [408, 409, 425, 429, 500, 502, 503, 504];

describe('the HTTP client’s retry policy (docs/builds.md)', () => {
  it.each(RETRIED)('retries a GET once on %i, then succeeds', async (code) => {
    const fetch = fetchAnswering(status(code), json({ ok: true }));
    const http = createHttpClient({ fetch });
    await expect(http(URL)).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it.each(RETRIED)('retries a GET only once on %i, then fails with HttpError', async (code) => {
    const fetch = fetchAnswering(status(code));
    const http = createHttpClient({ fetch });
    const error = await http(URL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe(`HTTP error! status: ${code}`);
    expect((error as HttpError).status).toBe(code);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'post'])('never retries %s, even on 503', async (method) => {
    const fetch = fetchAnswering(status(503), json({ ok: true }));
    const http = createHttpClient({ fetch });
    await expect(http(URL, { method, body: { a: 1 } })).rejects.toThrow('HTTP error! status: 503');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never retries a POST after a network error', async () => {
    const fetch = fetchAnswering(networkError());
    const http = createHttpClient({ fetch });
    await expect(http(URL, { method: 'POST' })).rejects.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([400, 401, 403, 404, 410, 422, 501])('never retries a GET on %i', async (code) => {
    const fetch = fetchAnswering(status(code), json({ ok: true }));
    const http = createHttpClient({ fetch });
    await expect(http(URL)).rejects.toThrow(`HTTP error! status: ${code}`);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('retries a GET once after a network error, and rethrows it when it repeats', async () => {
    const fetch = fetchAnswering(networkError());
    const http = createHttpClient({ fetch });
    const error = await http(URL).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('gives a timed-out GET a fresh attempt with its own timer', async () => {
    let calls = 0;
    const fetch = vi.fn<typeof globalThis.fetch>((_request, init) => {
      calls += 1;
      if (calls > 1) return json({ second: true })();
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    });
    const http = createHttpClient({ fetch, timeout: 20 });
    await expect(http(URL)).resolves.toEqual({ second: true });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[1]?.[1]?.signal?.aborted).toBe(false);
  });

  it('does not retry a GET the caller aborted', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>((_request, init) =>
      init?.signal?.aborted ? Promise.reject(init.signal.reason) : json({ ok: true })(),
    );
    const http = createHttpClient({ fetch });
    const controller = new AbortController();
    controller.abort();
    await expect(http(URL, { signal: controller.signal })).rejects.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
