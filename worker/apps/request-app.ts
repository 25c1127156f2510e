/**
 * The app a request is for (docs/routes.md#apps): every wing reads it as `c.get('app')`, an app id.
 * A one-app deployment has the one app `default`, which keeps every stored key and name it had.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';

/** The app of a deployment that names none: its stored rows, keys and objects keep their names. */
export const DEFAULT_APP = 'default';

/** Names the request's app on the context, before any route reads it. */
export function requestApp(): MiddlewareHandler<AppEnv> {
  return async function requestAppMiddleware(c, next) {
    c.set('app', DEFAULT_APP);
    await next();
  };
}
