/**
 * The HTTP client for every browser call (PRODUCT.md §7), on ofetch: a GET (or HEAD) is retried once
 * and a payload method (POST, PUT, PATCH, DELETE) never, and only on 408, 409, 425, 429, 500, 502,
 * 503 and 504 or when no answer came at all. A non-OK answer becomes `HttpError`, whose message is
 * the product's `HTTP error! status: {status}` (PRODUCT.md §4).
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

/** ofetch's request options, without the retry settings: the policy above is the only one. */
export type HttpOptions = Omit<FetchOptions<'json'>, 'retry' | 'retryDelay' | 'retryStatusCodes'>;

/** Sends a request and resolves with the parsed body (JSON when the answer says so). */
export type HttpClient = <T>(url: string, options?: HttpOptions) => Promise<T>;

export interface HttpClientOptions {
  /** The fetch to call; the global one by default (tests pass a mock). */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds before a request is abandoned (and, for a GET, tried once more). */
  timeout?: number;
}

/** Creates an HTTP client with the retry policy of PRODUCT.md §7. */
export function createHttpClient({ fetch, timeout = 10_000 }: HttpClientOptions = {}): HttpClient {
  const $fetch = createFetch({ fetch, defaults: { timeout, retryStatusCodes: [...RETRY_STATUS_CODES] } });
  return async function http<T>(url: string, options: HttpOptions = {}): Promise<T> {
    const method = (options.method ?? 'GET').toUpperCase();
    try {
      return await $fetch<T, 'json'>(url, { ...options, method, retry: PAYLOAD_METHODS.has(method) ? 0 : 1 });
    } catch (error) {
      if (error instanceof FetchError && typeof error.status === 'number') {
        throw new HttpError(error.status, { cause: error });
      }
      throw error;
    }
  };
}

/** The browser's one client; code that needs another fetch (tests) creates its own. */
export const http: HttpClient = createHttpClient();
