/**
 * Writes to the admin API (docs/security.md, "Cross-site writes"): a POST, PUT, PATCH or DELETE
 * carries JSON or no body at all (415 otherwise), and one the browser's own credentials could sign in
 * — Cloudflare Access's cookie, since it has no `Authorization` header — comes from the console's own
 * origin (403 otherwise). A page on another site can make a browser send a `text/plain` form or a
 * `no-cors` fetch with the operator's cookie; it can never send `application/json` or an
 * `Authorization` header without a CORS preflight, which the admin API never grants.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface CrossSiteWritesOptions {
  /** The APIs under the mount whose writes are the public's (the page's beacon, the app's calls), by path prefix. */
  publicApis: readonly string[];
}

/** Whether the media type of `contentType` is `application/json` (parameters such as `charset` allowed). */
export function isJsonType(contentType: string): boolean {
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** Whether `request` has a body to read: a stream that does not say it is empty. */
function hasBody(request: Request): boolean {
  return request.body !== null && request.headers.get('content-length') !== '0';
}

/**
 * Why a browser's write did not come from the worker's own origin, or undefined when it did or when
 * no browser says where it came from. `Sec-Fetch-Site` is the browser's own word and wins; without
 * it, `Origin` must be the request's origin; a client that sends neither is not a browser page.
 */
export function crossOriginReason(request: Request): string | undefined {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) {
    return site === 'same-origin' || site === 'none'
      ? undefined
      : `Sec-Fetch-Site: a ${site} write to the admin API is refused; sign in with Authorization: Bearer to call it from elsewhere`;
  }
  const origin = request.headers.get('origin');
  if (origin === null || origin === new URL(request.url).origin) return undefined;
  return `Origin: a write from ${origin} to the admin API is refused; sign in with Authorization: Bearer to call it from elsewhere`;
}

/** Refuses admin writes that are not JSON (415), and cross-origin writes signed in by a cookie (403). */
export function crossSiteWrites({ publicApis }: CrossSiteWritesOptions): MiddlewareHandler<AppEnv> {
  return async function crossSiteWritesMiddleware(c, next) {
    const { path } = c.req;
    if (!WRITES.has(c.req.method) || publicApis.some((api) => path === api || path.startsWith(`${api}/`))) {
      return next();
    }
    // A bearer token is sent by code that chose to: no page of another site can add it to a
    // browser's request without a preflight. Without one, the browser's cookie may be what signs in.
    if (!c.req.header('authorization')) {
      const reason = crossOriginReason(c.req.raw);
      if (reason) return c.json({ error: reason }, 403);
    }
    const type = c.req.header('content-type');
    if (type !== undefined ? !isJsonType(type) : hasBody(c.req.raw)) {
      const got = type === undefined ? 'none' : JSON.stringify(type);
      return c.json({ error: `Content-Type: an admin write takes application/json, got ${got}` }, 415);
    }
    return next();
  };
}
