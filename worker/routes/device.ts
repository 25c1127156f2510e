/** `GET /api/device` (docs/device.md): the worker's device info for this request, as JSON. */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { completeResponses, NONCE_FREE_CSP, SECURITY_HEADERS } from '../middleware/security-headers.ts';
import { ACCEPT_CH, DETECTION_VARY } from '../middleware/visitor.ts';

// Every header of the answer, made once: a response copies a `Headers` natively (render/page-cache.ts).
const HEADERS = new Headers([
  ['content-type', 'application/json'],
  // Per visitor and per request (referrer, hints): never stored by any cache.
  ['cache-control', 'private, no-store'],
  ['vary', DETECTION_VARY.join(', ')],
  ['accept-ch', ACCEPT_CH],
  ...SECURITY_HEADERS,
  ['content-security-policy', NONCE_FREE_CSP],
]);

/** Mounted at `/api/device`. */
export const deviceRoute = new Hono<AppEnv>().get('/', (c) => {
  const response = new Response(JSON.stringify(c.get('device')), { headers: HEADERS });
  completeResponses.add(response);
  return response;
});
