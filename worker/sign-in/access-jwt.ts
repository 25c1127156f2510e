/**
 * Cloudflare Access sign-in for the admin API (docs/operators.md): when `ACCESS_AUD` and
 * `ACCESS_TEAM_DOMAIN` are set, Access puts a signed JWT in `Cf-Access-Jwt-Assertion`. It is checked
 * here: RS256 with one of the team's keys (`https://<team domain>/cdn-cgi/access/certs`, kept ten
 * minutes per isolate, fetched again for a key id it does not know), the application's audience, the
 * team as issuer, and the expiry. Development also takes a team at `http://127.0.0.1:<port>` or
 * `http://localhost:<port>`: a local stand-in for Access, for trying the console behind it and for
 * the browser tests (docs/operators.md); production always asks `https://`.
 */
import { fromBase64Url } from '../../shared/base64url.ts';

/** How long an isolate keeps the team's keys. */
const KEYS_MS = 10 * 60_000;
/** A new key id refetches the keys at most this often. */
const REFETCH_MS = 60_000;
/** Seconds of clock difference tolerated on `exp` and `nbf`. */
const LEEWAY_S = 30;

export interface AccessOptions {
  /** The team domain, `example.cloudflareaccess.com` (a scheme or trailing slash is ignored). */
  teamDomain: string;
  /** The Access application's audience tag. */
  audience: string;
  /** Now, in ms. */
  now?: number;
  /** Development: a team domain of `http://127.0.0.1:<port>` or `http://localhost:<port>` is asked over http. */
  loopback?: boolean;
}

interface Jwk extends JsonWebKey {
  kid?: string;
}

interface KeySet {
  keys: Map<string, Promise<CryptoKey>>;
  fetchedAt: number;
}

const keySets = new Map<string, Promise<KeySet>>();

const LOOPBACK_TEAM = /^http:\/\/(?:127\.0\.0\.1|localhost)(?::\d{1,5})?$/;

/** The team's origin from its domain as an operator may write it: https, but a loopback stand-in where allowed. */
function teamOrigin(teamDomain: string, loopback: boolean): string {
  const written = teamDomain.trim().replace(/\/+$/, '');
  if (loopback && LOOPBACK_TEAM.test(written)) return written;
  return `https://${written.replace(/^https?:\/\//, '')}`;
}

async function fetchKeys(origin: string, now: number): Promise<KeySet> {
  const res = await fetch(`${origin}/cdn-cgi/access/certs`);
  if (!res.ok) throw new Error(`Access certs answered ${res.status}`);
  const body: { keys?: Jwk[] } = await res.json();
  const keys = new Map<string, Promise<CryptoKey>>();
  for (const jwk of body.keys ?? []) {
    if (typeof jwk.kid !== 'string' || jwk.kty !== 'RSA') continue;
    const { kid, ...material } = jwk;
    keys.set(
      kid,
      crypto.subtle.importKey('jwk', material, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']),
    );
  }
  return { keys, fetchedAt: now };
}

async function keyFor(origin: string, kid: string, now: number): Promise<CryptoKey | undefined> {
  let pending = keySets.get(origin);
  let set = pending ? await pending.catch(() => undefined) : undefined;
  const stale = !set || now - set.fetchedAt > KEYS_MS || (!set.keys.has(kid) && now - set.fetchedAt > REFETCH_MS);
  if (stale) {
    pending = fetchKeys(origin, now);
    keySets.set(origin, pending);
    set = await pending;
  }
  return set?.keys.get(kid);
}

function json(part: string | undefined): Record<string, unknown> | undefined {
  const bytes = part === undefined ? undefined : fromBase64Url(part);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who a valid Access JWT for this team and application signs in: its `email`, else its `sub`
 * (a service token has no email); null for any other token. Never throws.
 */
export async function verifyAccessJwt(
  token: string,
  { teamDomain, audience, now = Date.now(), loopback = false }: AccessOptions,
): Promise<string | null> {
  try {
    const parts = token.split('.');
    const [head, body, signature] = parts;
    const header = json(head);
    const claims = json(body);
    const sig = signature === undefined ? undefined : fromBase64Url(signature);
    if (parts.length !== 3 || !header || !claims || !sig) return null;
    if (header.alg !== 'RS256' || typeof header.kid !== 'string') return null;
    const origin = teamOrigin(teamDomain, loopback);
    const key = await keyFor(origin, header.kid, now);
    if (!key) return null;
    const signed = new TextEncoder().encode(`${head}.${body}`);
    if (!(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, sig, signed))) return null;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const seconds = now / 1000;
    const valid =
      audiences.includes(audience) &&
      claims.iss === origin &&
      typeof claims.exp === 'number' &&
      claims.exp + LEEWAY_S > seconds &&
      (claims.nbf === undefined || (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_S <= seconds));
    if (!valid) return null;
    const who = typeof claims.email === 'string' && claims.email ? claims.email : claims.sub;
    return typeof who === 'string' && who ? who : 'access';
  } catch (error) {
    console.error('Access JWT not verified', error instanceof Error ? error.message : String(error));
    return null;
  }
}
