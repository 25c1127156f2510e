/** `GET /api/device` (docs/device.md): the worker's device info for this request, as JSON. */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

/** Mounted at `/api/device`. */
export const deviceRoute = new Hono<AppEnv>().get('/', (c) =>
  // Per visitor and per request (referrer, hints): never stored by any cache.
  c.json(c.get('device'), 200, { 'cache-control': 'private, no-store' }),
);
