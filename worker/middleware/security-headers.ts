/**
 * Security headers on every response (docs/routes.md): Hono's secureHeaders with our policy
 * (docs/security.md). The CSP starts from `default-src 'none'` and allows back only what the page
 * uses, so a kind of resource nobody thought of stays blocked. Scripts run only from this origin or
 * with the per-response nonce React puts on its tags; never 'unsafe-inline'. Styles come from this
 * origin's stylesheet only (no inline style attributes in server HTML). The page may not be framed.
 * `npm run observatory` grades these headers with the MDN HTTP Observatory (A+ required).
 *
 * The CSP is written here, once, cut where the nonce goes: each response only joins the two halves
 * around its own nonce, rather than have the policy rebuilt from its directives every time.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../env.ts';

export interface SecurityHeadersOptions {
  /** Extra origins the page may call with fetch (trace origin, download domains). */
  connectSrc?: string[];
}

/** The policy, with `{nonce}` where the response's nonce goes. */
function contentSecurityPolicy(connectSrc: string[]): string {
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "script-src 'nonce-{nonce}' 'self'",
    "style-src 'self'",
    // App logos and screenshots come from the operator's CDN (config); QR codes are data: URLs.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "manifest-src 'self'",
    // The trace service and the download-domain probes (docs/identity.md, docs/config.md) may be on other origins.
    ["connect-src 'self' https:", ...connectSrc].join(' '),
  ].join('; ');
}

/** A CSP nonce: 16 random bytes in base64. */
function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** Middleware setting the CSP, HSTS, framing, referrer, CORP and permissions headers. */
export function securityHeaders({ connectSrc = [] }: SecurityHeadersOptions = {}): MiddlewareHandler<AppEnv> {
  const others = secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-site',
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
  const [before, after] = contentSecurityPolicy(connectSrc).split('{nonce}');
  return async function securityHeadersMiddleware(c, next) {
    const nonce = newNonce();
    c.set('secureHeadersNonce', nonce);
    await others(c, next);
    c.res.headers.set('Content-Security-Policy', `${before}${nonce}${after}`);
  };
}
