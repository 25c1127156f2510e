/**
 * `GET /api/openapi.json` — the OpenAPI 3.1 document (document.ts) — and `GET /api/docs`, the same
 * as a plain reference page for people: server HTML, no script, its one stylesheet from this origin,
 * so the CSP of every other answer (lib/headers.ts) holds as it is. Both are written by the client
 * build (assets.ts) and served from its assets with this worker's headers.
 */
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { OPENAPI_ASSET, REFERENCE_ASSET } from './assets.ts';
import { referenceCss } from './reference-page.ts';

/** Mounted at `/api`. */
export const openApiRoutes = new Hono<AppEnv>();

const CACHE = { 'cache-control': 'public, max-age=300' };

/** The built asset `path`'s text, or null when the build has none (or the assets do not answer). */
async function builtAsset(c: Context<AppEnv>, path: string): Promise<string | null> {
  try {
    const res = await c.env.ASSETS.fetch(new URL(`/${path}`, c.req.url));
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

const notBuilt = (c: Context<AppEnv>) =>
  c.json({ error: 'The OpenAPI document is written by the client build (npm run build): not found' }, 503);

openApiRoutes.get('/openapi.json', async (c) => {
  const document = await builtAsset(c, OPENAPI_ASSET);
  return document === null
    ? notBuilt(c)
    : c.body(document, 200, { ...CACHE, 'content-type': 'application/json; charset=utf-8' });
});
openApiRoutes.get('/docs', async (c) => {
  const page = await builtAsset(c, REFERENCE_ASSET);
  return page === null ? notBuilt(c) : c.html(page, 200, CACHE);
});
openApiRoutes.get('/docs.css', (c) =>
  c.body(referenceCss, 200, { ...CACHE, 'content-type': 'text/css; charset=utf-8' }),
);
