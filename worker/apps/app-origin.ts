/**
 * Where the request's app's links start (docs/routes.md#apps): the URL's origin and the app's base
 * path on this host — `https://lander.example/@notes` under a prefix, the plain origin on an app's
 * own host. Every absolute link the worker builds for an app (short links, QR codes, redirects to its
 * pages) starts here, so a visitor of `/@notes/` stays in notes.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

export function appOrigin(c: Context<AppEnv>): string {
  return `${new URL(c.req.url).origin}${c.get('appBase') ?? ''}`;
}
