/**
 * `GET /api/openapi.json` — the OpenAPI 3.1 document (document.ts) — and `GET /api/docs`, the same
 * as a plain reference page for people: server HTML, no script, its one stylesheet from this origin,
 * so the CSP of every other answer (lib/headers.ts) holds as it is.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { openApiDocument } from './document.ts';
import { referenceCss, referenceHtml } from './reference-page.ts';

/** Mounted at `/api`. */
export const openApiRoutes = new Hono<AppEnv>();

const CACHE = { 'cache-control': 'public, max-age=300' };

openApiRoutes.get('/openapi.json', (c) => c.json(openApiDocument(), 200, CACHE));
openApiRoutes.get('/docs', (c) => c.html(referenceHtml(openApiDocument()), 200, CACHE));
openApiRoutes.get('/docs.css', (c) =>
  c.body(referenceCss, 200, { ...CACHE, 'content-type': 'text/css; charset=utf-8' }),
);
