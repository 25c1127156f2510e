/**
 * The HTTP client for every browser call (docs/builds.md), on ofetch: a GET (or HEAD) is retried once
 * and a payload method (POST, PUT, PATCH, DELETE) never, and only on 408, 409, 425, 429, 500, 502,
 * 503 and 504, on a network error or on a timeout. A non-OK answer becomes `HttpError`, whose message
 * is the product's `HTTP error! status: {status}` (docs/identity.md).
 */
import { createFetch, FetchError, type FetchOptions } from 'ofetch';

/** Statuses worth one more try: the server may answer differently a moment later. */
export const RETRY_STATUS_CODES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];

// Repeating a payload method could apply it twice (two orders, two sign-ups), so those never retry.
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A non-OK answer; `status` is the HTTP status. */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, options?: ErrorOptions) {
    super(`HTTP error! status: ${status}`, options);
    this.name = 'HttpError';
    this.status = status;
  }
}

/** ofetch's request options without its retry settings (the policy above is the only one). */
export type HttpOptions = Omit<FetchOptions<'json'>, 'retry' | 'retryDelay' | 'retryStatusCodes' | 'timeout'> & {
  /** Milliseconds each attempt may take. */
  timeout?: number;
};

/** Sends a request and resolves with the parsed body (JSON when the answer says so). */
export type HttpClient = <T>(url: string, options?: HttpOptions) => Promise<T>;

export interface HttpClientOptions {
  /** The fetch to call; the global one by default (tests pass a mock). */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds each attempt may take unless a call says otherwise. */
  timeout?: number;
}

/**
 * `fetch` with a fresh timer per attempt. ofetch's own `timeout` keeps the first attempt's aborted
 * signal for the retry (unjs/ofetch#621), so a timed-out GET would never really be tried again.
 * A caller's own signal still aborts the request, and ofetch does not retry that.
 */
function fetchWithTimeout(fetch: typeof globalThis.fetch, ms: number): typeof globalThis.fetch {
  return async (input, init = {}) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException(`No answer in ${ms} ms`, 'TimeoutError')), ms);
    const outer = init.signal;
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
    try {
      return await fetch(input, { ...init, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Creates an HTTP client with the retry policy of docs/builds.md. */
export function createHttpClient({ fetch, timeout = 10_000 }: HttpClientOptions = {}): HttpClient {
  return async function http<T>(url: string, { timeout: ms = timeout, ...options }: HttpOptions = {}): Promise<T> {
    const method = (options.method ?? 'GET').toUpperCase();
    const $fetch = createFetch({ fetch: fetchWithTimeout(fetch ?? globalThis.fetch, ms) });
    try {
      return await $fetch<T, 'json'>(url, {
        ...options,
        method,
        retry: PAYLOAD_METHODS.has(method) ? 0 : 1,
        retryStatusCodes: [...RETRY_STATUS_CODES],
      });
    } catch (error) {
      if (error instanceof FetchError && typeof error.status === 'number') {
        throw new HttpError(error.status, { cause: error });
      }
      throw error;
    }
  };
}

/**
 * `client` with `base` before every path it is given (`/api/links` → `/@notes/api/links`): an app's
 * API on the shared host (docs/routes.md#apps). An empty base is `client` itself.
 */
export function withBase(client: HttpClient, base: string): HttpClient {
  if (!base) return client;
  return (url, options) => client(url.startsWith('/') ? `${base}${url}` : url, options);
}

/** The browser's one client; code that needs another fetch (tests) creates its own. */
export const http: HttpClient = createHttpClient();
