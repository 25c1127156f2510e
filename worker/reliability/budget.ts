/**
 * Budgets for engines that may hang (docs/reliability.md): a call that has not answered within its
 * budget is given up by the request (it may still finish later), so an answer never waits past it.
 * The race itself is `withinBudget` (worker/lib/within-budget.ts); the numbers and the retries live here.
 */
import { withinBudget } from '../lib/within-budget.ts';

/** How long attribution's Durable Objects get per answer: half the SDK's 3 s, leaving it time to read. */
export const ATTRIBUTION_BUDGET_MS = 1500;
/** How long a short link's page waits for its link in D1. */
export const LINK_BUDGET_MS = 1000;
/**
 * How long a queue send may take after the response before it is tried again: a send still hanging
 * when `waitUntil` ends (30 s) would be lost uncounted.
 */
export const QUEUE_SEND_BUDGET_MS = 3000;
/** How long the rate limiter gets before the request is let through. */
export const LIMITER_BUDGET_MS = 300;
/** How long a download waits for R2 to describe the parent before answering 503. */
export const R2_HEAD_BUDGET_MS = 2000;
/** The pauses before each retry of work given up on (after the response, under `waitUntil`). */
export const RETRY_DELAYS_MS: readonly number[] = [250, 1000, 4000];

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * `attempt()` again after each of `RETRY_DELAYS_MS`, each within `budgetMs`, until one succeeds:
 * its result, or null when every try failed (the caller counts the loss).
 */
export async function retried<T>(attempt: () => Promise<T>, budgetMs: number): Promise<T | null> {
  for (const delay of RETRY_DELAYS_MS) {
    await pause(delay);
    try {
      return await withinBudget(attempt(), budgetMs);
    } catch (error) {
      console.error('Retry failed', messageOf(error));
    }
  }
  return null;
}
