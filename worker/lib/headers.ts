/**
 * Every header the worker adds to its answers, written once (docs/security.md, docs/device.md): the
 * security headers and the CSP, `Accept-CH` and `Vary` for the device detection. The middleware puts
 * them on every response (middleware/response-headers.ts); a handler that builds its answer with them
 * already in place — the page, `/api/device` — marks it `complete`, and the middleware leaves it alone.
 *
 * The CSP starts from `default-src 'none'` and allows back only what the page uses, so a kind of
 * resource nobody thought of stays blocked. Scripts run only from this origin, or inline with the
 * nonce of a page that streams React's inline scripts; never 'unsafe-inline'. Styles come from this
 * origin's stylesheet only (no inline style attributes in server HTML). The page may not be framed.
 * `npm run observatory` grades these headers with the MDN HTTP Observatory (A+ required).
 */
import { DETECTION_HINTS, REQUESTED_HINTS } from '../../shared/device.ts';
import { boundedCache, CACHE_SHARES, stringBytes } from './bounded-cache.ts';

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

/** The CSP of a response without inline scripts (APIs, error pages, kept pages). */
export const NONCE_FREE_CSP = contentSecurityPolicy();

/** A CSP nonce: 16 random bytes in base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
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

/** The request headers detection reads: every response varies on them. */
export const DETECTION_VARY: readonly string[] = ['User-Agent', 'Accept-Language', ...DETECTION_HINTS];
/** The `Accept-CH` value: the high-entropy hints detection asks for. */
export const ACCEPT_CH = REQUESTED_HINTS.join(', ');

/** Adds `names` to a `Vary` value, once each (compared case-insensitively), keeping what is there. */
export function mergeVary(current: string | null, names: readonly string[]): string {
  const values = (current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.includes('*')) return '*';
  const seen = new Set(values.map((value) => value.toLowerCase()));
  for (const name of names) {
    if (!seen.has(name.toLowerCase())) {
      values.push(name);
      seen.add(name.toLowerCase());
    }
  }
  return values.join(', ');
}

// Responses carry one of a handful of Vary values (none, the page's, an API's): merge each once.
const mergedVary = boundedCache<string>({ maxBytes: CACHE_SHARES.vary, sizeOf: stringBytes });

/** `current` (a response's own `Vary`, if any) with the detection's headers added: the one way `Vary` is composed. */
export function varyWithDetection(current: string | null): string {
  const key = current ?? '';
  let value = mergedVary.get(key);
  if (value === undefined) {
    value = mergeVary(current, DETECTION_VARY);
    mergedVary.set(key, value);
  }
  return value;
}

/**
 * The headers every answer gets besides its own `extra` ones, in one list (a response copies a
 * `Headers` natively): security headers, the CSP, `Accept-CH` and `Vary`. For a handler that
 * completes its own answer (`complete`).
 */
export function answerHeaders(extra: readonly [string, string][], csp = NONCE_FREE_CSP): [string, string][] {
  const own = extra.filter(([name]) => name.toLowerCase() !== 'vary');
  const vary = extra.find(([name]) => name.toLowerCase() === 'vary')?.[1] ?? null;
  return [
    ...own,
    ['vary', varyWithDetection(vary)],
    ['accept-ch', ACCEPT_CH],
    ...SECURITY_HEADERS,
    ['content-security-policy', csp],
  ];
}

// Responses their handler built with every header already in place.
const completed = new WeakSet<Response>();

/** Marks `response` as carrying every header of this module already; returns it. */
export function complete(response: Response): Response {
  completed.add(response);
  return response;
}

/** Whether `response` was built with every header in place (`complete`): nothing may add to it. */
export function isComplete(response: Response): boolean {
  return completed.has(response);
}

/**
 * Adds every header of this module that `headers` (a response's own, changed in place) lacks:
 * the security headers, a nonce-free CSP unless the response wrote its own, `Accept-CH` and `Vary`.
 */
export function addAnswerHeaders(headers: Headers): void {
  for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
  // A page that streams inline scripts wrote its own, with its nonce: never replace that one.
  if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', NONCE_FREE_CSP);
  headers.set('Accept-CH', ACCEPT_CH);
  headers.set('Vary', varyWithDetection(headers.get('vary')));
}
