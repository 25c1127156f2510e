/**
 * One delivery attempt (docs/webhooks.md#safety): a signed POST that follows no redirect, gives up
 * after 10 seconds and reads at most 64 KiB of the answer before closing it, so a slow or huge answer
 * costs the worker nothing more. The URL is checked again before every attempt.
 */

import { DEFAULT_RESOLVER } from '../settings.ts';
import { checkEndpointUrl } from './endpoint-url.ts';
import { resolvedProblem } from './resolve-host.ts';
import { parseRetryAfter, type Verdict, verdictOf } from './retry-policy.ts';
import { signatureHeaders } from './signing.ts';

/** How long an attempt may take, answer included. */
export const TIMEOUT_MS = 10_000;
/** The most bytes of an answer read. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface AttemptResult {
  verdict: Verdict;
  /** The HTTP status; 0 when there was no answer. */
  status: number;
  latencyMs: number;
  /** Why it failed, `''` when delivered. */
  error: string;
  /** The receiver's `Retry-After`, in seconds. */
  retryAfter?: number;
}

export interface DeliveryTarget {
  url: string;
  secret: string;
  /** The secret a rotation replaced, while it still signs too (endpoints.ts `signingSecrets`). */
  previousSecret?: string | null;
  /** The `webhook-id`. */
  id: string;
  body: string;
}

/** Reads at most `limit` bytes of `body`, then cancels the rest; the text read (for an error message). */
async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) return new TextDecoder().decode(concat(chunks, size));
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return new TextDecoder().decode(concat(chunks, size).subarray(0, limit));
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

const oneLine = (text: string, max = 160): string => text.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * Sends `target` once from `env`'s environment; never throws. Production also checks what the URL's
 * name resolves to, with `resolver` (resolve-host.ts).
 */
export async function attemptDelivery(
  target: DeliveryTarget,
  env: 'development' | 'production',
  { timeoutMs = TIMEOUT_MS, resolver = DEFAULT_RESOLVER }: { timeoutMs?: number; resolver?: string } = {},
): Promise<AttemptResult> {
  const started = Date.now();
  const checked = checkEndpointUrl(target.url, env);
  if (!checked.ok) return { verdict: 'final', status: 0, latencyMs: 0, error: `url ${checked.reason}` };
  if (env === 'production') {
    const problem = await resolvedProblem(new URL(checked.url).hostname, resolver);
    if (problem) {
      const verdict = problem.transient ? 'retry' : 'final';
      return { verdict, status: 0, latencyMs: Date.now() - started, error: `url ${problem.reason}` };
    }
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const others = target.previousSecret ? [target.previousSecret] : [];
    const signed = await signatureHeaders(target.secret, target.id, Math.floor(Date.now() / 1000), target.body, others);
    const response = await fetch(checked.url, {
      method: 'POST',
      body: target.body,
      headers: { 'content-type': 'application/json', 'user-agent': 'Lander-Webhooks/1', ...signed },
      redirect: 'manual',
      signal: controller.signal,
    });
    const answer = await readBounded(response.body, MAX_ANSWER_BYTES);
    const latencyMs = Date.now() - started;
    const verdict = verdictOf(response.status);
    if (verdict === 'delivered') return { verdict, status: response.status, latencyMs, error: '' };
    const location = response.headers.get('location');
    const error =
      response.status >= 300 && response.status < 400
        ? `redirect${location ? ` to ${oneLine(location)}` : ''} not followed`
        : `HTTP ${response.status}${answer ? `: ${oneLine(answer)}` : ''}`;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return { verdict, status: response.status, latencyMs, error, ...(retryAfter === undefined ? {} : { retryAfter }) };
  } catch (error) {
    const latencyMs = Date.now() - started;
    if (controller.signal.aborted)
      return { verdict: 'retry', status: 0, latencyMs, error: `no answer within ${timeoutMs / 1000} s` };
    return {
      verdict: 'retry',
      status: 0,
      latencyMs,
      error: oneLine(error instanceof Error ? error.message : String(error)),
    };
  } finally {
    clearTimeout(timer);
  }
}
