/** `GET /api/device` (docs/device.md): the worker's device info for this request, as JSON. */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { answerHeaders, complete } from '../lib/headers.ts';

// Every header of the answer, made once: a response copies a `Headers` natively (render/page-cache.ts).
const HEADERS = new Headers(
  answerHeaders([
    ['content-type', 'application/json'],
    // Per visitor and per request (referrer, hints): never stored by any cache.
    ['cache-control', 'private, no-store'],
  ]),
);

/** Mounted at `/api/device`. */
export const deviceRoute = new Hono<AppEnv>().get('/', (c) => {
  return complete(new Response(JSON.stringify(c.get('device')), { headers: HEADERS }));
});
