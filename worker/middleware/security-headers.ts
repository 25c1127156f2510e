/**
 * Security headers on every response (docs/routes.md): Hono's secureHeaders with our policy
 * (docs/security.md). The CSP starts from `default-src 'none'` and allows back only what the page
 * uses, so a kind of resource nobody thought of stays blocked. Scripts run only from this origin or
 * with the per-response nonce React puts on its tags; never 'unsafe-inline'. Styles come from this
 * origin's stylesheet only (no inline style attributes in server HTML). The page may not be framed.
 * `npm run observatory` grades these headers with the MDN HTTP Observatory (A+ required).
 */
import { NONCE, secureHeaders } from 'hono/secure-headers';

export interface SecurityHeadersOptions {
  /** Extra origins the page may call with fetch (trace origin, download domains). */
  connectSrc?: string[];
}

/** Hono middleware setting the CSP, HSTS, framing, referrer, CORP and permissions headers. */
export function securityHeaders({ connectSrc = [] }: SecurityHeadersOptions = {}) {
  return secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-site',
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      scriptSrc: [NONCE, "'self'"],
      styleSrc: ["'self'"],
      // App logos and screenshots come from the operator's CDN (config); QR codes may be data: URLs.
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'"],
      manifestSrc: ["'self'"],
      // The trace service and the download-domain probes (docs/identity.md, docs/config.md) may be on other origins.
      connectSrc: ["'self'", 'https:', ...connectSrc],
    },
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
