/**
 * Answers a request for a page already kept in this isolate (worker/render/page-cache.ts) without
 * running the rest of the app: the kept HTML and the headers the app gave it last time, with a fresh
 * CSP nonce in both (decision 005). First in the chain, so a hit skips every other middleware.
 *
 * A page is kept only after the app rendered it (route rules, API routes and app-link redirects never
 * reach the render), and its headers only after the app served it once from the kept page: so every
 * answer given here is one the app gave before for the same key, never something new. The key is
 * computed from the same request headers, configuration and variables as the app's own.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { keepHeaders, keptResponse, keptStatus, mayBeKept, pageKeyOf } from '../render/page-cache.ts';
import { loadAppConfig } from './config.ts';
import { visitOf } from './visitor.ts';

/** A CSP nonce as hono's secureHeaders makes them: 16 random bytes in base64. */
function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function keptPages(): MiddlewareHandler<AppEnv> {
  return async function keptPagesMiddleware(c, next) {
    // Only a URL some page was kept for can be answered here; anything else costs one set lookup.
    if (c.req.method !== 'GET' || !mayBeKept(c.req.url)) return next();
    const visit = visitOf((name) => c.req.header(name));
    const config = await loadAppConfig(c.env);
    const key = pageKeyOf({ url: c.req.url, deviceKey: visit.deviceKey, language: visit.language, config, env: c.env });
    const status = keptStatus(key);
    // A bot is never answered with an error page: the render gives it the metadata page instead.
    if (status !== undefined && !(visit.device.bot && status >= 400)) {
      const kept = keptResponse(key, newNonce());
      if (kept) return kept;
    }
    // What was found here is what the app would find: hand it on rather than read it again.
    c.set('device', visit.device);
    c.set('deviceKey', visit.deviceKey);
    c.set('language', visit.language);
    c.set('config', config);
    await next();
    const nonce = c.get('secureHeadersNonce');
    if (nonce && c.get('pageKey') === key) keepHeaders(key, c.res.status, c.res.headers, nonce);
  };
}
