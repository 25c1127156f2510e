/**
 * Security headers on every response (PRODUCT.md §2): Hono's secureHeaders with our policy.
 * Scripts run only from this origin or with the per-request nonce React puts on its tags;
 * never 'unsafe-inline'. The page may not be framed.
 */
import { NONCE, secureHeaders } from 'hono/secure-headers';

export interface SecurityHeadersOptions {
  /** Extra origins the page may call with fetch (trace origin, download domains). */
  connectSrc?: string[];
}

export function securityHeaders({ connectSrc = [] }: SecurityHeadersOptions = {}) {
  return secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-site',
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      scriptSrc: [NONCE, "'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      connectSrc: ["'self'", 'https:', ...connectSrc],
    },
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
