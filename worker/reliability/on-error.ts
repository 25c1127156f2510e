/**
 * What an API call or a download answers when an engine it needs throws (docs/reliability.md): a 503
 * (an API's with a JSON error) and `Retry-After`, never Hono's bare 500, so an operator's client,
 * the console or a download manager knows to try again. Pages never get here: the render has its own failure page (docs/routes.md).
 */
import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../env.ts';
import { messageOf } from './budget.ts';

/** Seconds an operator's client is asked to wait before trying again. */
const RETRY_AFTER_S = 5;

export const onEngineError: ErrorHandler<AppEnv> = (error, c) => {
  // A refusal a middleware meant (a body too large) is answered as it was meant.
  if (error instanceof HTTPException) return error.getResponse();
  console.error(`${c.req.method} ${c.req.path} failed`, messageOf(error));
  const api = c.req.path.startsWith('/api/');
  if (!api && !c.req.path.startsWith('/dl/')) return c.text('Internal Server Error', 500);
  c.header('cache-control', 'no-store');
  c.header('retry-after', String(RETRY_AFTER_S));
  if (!api) return c.text('The download is unavailable for a moment; try again', 503);
  return c.json({ error: 'A store this call needs is unavailable; try again' }, 503);
};
