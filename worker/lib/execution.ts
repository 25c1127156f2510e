/**
 * The request's execution context, for work after the response (`waitUntil`). Hono throws when there
 * is none — a test calling `app.request` — so each caller says what happens then in one place.
 */
import type { Context } from 'hono';

/** `c`'s execution context, or undefined when the request has none. */
export function executionOf(c: Pick<Context, 'executionCtx'>): Pick<ExecutionContext, 'waitUntil'> | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
