import { DAY_MS } from '../../shared/time-zone.ts';
/**
 * When a delivery is tried again (docs/webhooks.md#retries): after a timeout, a network error, 408,
 * 409, 429 or a 5xx, with growing delays over more than 24 hours (the Standard Webhooks schedule),
 * never sooner than the receiver's `Retry-After`. A redirect or any other 4xx is final; a `410 Gone`
 * also disables its endpoint (delivery-log.ts).
 */

/** Seconds to wait after attempt 1, 2, …; 27.6 hours in all. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
/** Attempts of one delivery: wrangler.toml's `max_retries` (7) plus the first. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** The longest delay a queue message may be given (12 hours). */
const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** An endpoint failing every attempt for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * DAY_MS;

/** The answer of a receiver that is gone for good: its endpoint is disabled (Standard Webhooks' advice). */
export const GONE_STATUS = 410;

export type Verdict = 'delivered' | 'retry' | 'final';

/** What an answer with `status` means for its delivery (0: no answer at all). */
export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 0 || status === 408 || status === 409 || status === 429 || status >= 500) return 'retry';
  return 'final';
}

/** Seconds before the attempt after `attempt` (1-based), at least `retryAfter` when the receiver asked. */
export function retryDelaySeconds(attempt: number, retryAfter?: number): number {
  const scheduled = RETRY_DELAYS_SECONDS[Math.min(attempt, RETRY_DELAYS_SECONDS.length) - 1] ?? 5;
  return Math.min(Math.max(scheduled, Math.ceil(retryAfter ?? 0)), MAX_QUEUE_DELAY_SECONDS);
}

/** A `Retry-After` header in seconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
