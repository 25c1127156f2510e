/**
 * Security headers on every response (docs/security.md). The CSP starts from `default-src 'none'`
 * and allows back only what the page uses, so a kind of resource nobody thought of stays blocked.
 * Scripts run only from this origin, or inline with the nonce of a page that streams React's inline
 * scripts; never 'unsafe-inline'. Styles come from this origin's stylesheet only (no inline style
 * attributes in server HTML). The page may not be framed. `npm run observatory` grades these headers
 * with the MDN HTTP Observatory (A+ required).
 *
 * Every header is written once, here, as a list: a response carries them in one step, and a page
 * answered from the page cache is built with them already in place (render/render-page.tsx), so
 * this middleware leaves such a response alone (`completeResponses`).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';

/** The policy with a nonce for inline scripts, or without one: then scripts come from this origin only. */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    nonce ? `script-src 'nonce-${nonce}' 'self'` : "script-src 'self'",
    "style-src 'self'",
    // App logos and screenshots come from the operator's CDN (config); QR codes are data: URLs.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "manifest-src 'self'",
    // The trace service and the download-domain probes (docs/identity.md, docs/config.md) may be on other origins.
    "connect-src 'self' https:",
  ].join('; ');
}

/** Every header of docs/security.md but the CSP, which depends on the response's nonce. */
export const SECURITY_HEADERS: readonly [string, string][] = [
  ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
];

/** The CSP of a response without inline scripts (APIs, error pages, kept pages). */
export const NONCE_FREE_CSP = contentSecurityPolicy();

/** A CSP nonce: 16 random bytes in base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * Responses their handler built with every header already in place (the security headers, `Vary`,
 * `Accept-CH`): the middlewares that would add them leave these alone.
 */
export const completeResponses = new WeakSet<Response>();

/**
 * Middleware setting the CSP, HSTS, framing, referrer, CORP, COOP and permissions headers on every
 * response a handler did not complete itself. A CSP already there is the page's own; any other
 * response has no inline script, so its CSP has no nonce.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    if (completeResponses.has(c.res)) return;
    // Set in place: c.header() would re-wrap the finished response.
    const headers = c.res.headers;
    for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
    // A page that streams inline scripts wrote its own, with its nonce: never replace that one.
    if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', NONCE_FREE_CSP);
  };
}
