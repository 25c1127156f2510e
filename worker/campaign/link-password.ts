/**
 * A short link's password (docs/smart-links.md#links): kept only as a PBKDF2-SHA-256 hash with a
 * random 16-byte salt (WebCrypto), and the cookie that lets one visitor through for a while once
 * they typed it. The cookie is `<expiry ms>.<HMAC-SHA-256 of slug and expiry>` keyed by the stored
 * hash itself: only the worker knows it, and a new or removed password voids every cookie at once.
 */

/**
 * The iterations of a new hash: the most Cloudflare's runtime allows (it refuses more, "Pbkdf2
 * failed: iteration counts above 100000 are not supported"; the open-source workerd of local runs
 * does not enforce it). About 11 ms locally, measured by tests/worker/campaign/link-gate.test.ts. A
 * stored hash names its own count, so it can change; one naming more than the cap is refused unread.
 */
export const PASSWORD_ITERATIONS = 100_000;

/** Tries of a link's password per address, per minute (wrangler.toml's `LINK_PASSWORD_LIMITER`). */
export const PASSWORD_TRIES_PER_MINUTE = 10;

/** How long a typed password opens the link in that browser: one hour. */
export const PASS_SECONDS = 3600;

const encoder = new TextEncoder();

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

const fromBase64url = (text: string): Uint8Array =>
  Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** The stored form of `password`: `pbkdf2-sha256$<iterations>$<salt>$<hash>`. */
export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

/** Byte strings compared in time that does not depend on where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** Whether `password` is the one `stored` (hashPassword's form) was made from. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, count, salt, hash] = stored.split('$');
  const iterations = Number(count);
  const countable = Number.isSafeInteger(iterations) && iterations >= 1 && iterations <= PASSWORD_ITERATIONS;
  if (scheme !== 'pbkdf2-sha256' || !salt || !hash || !countable) return false;
  return sameBytes(await derive(password, fromBase64url(salt), iterations), fromBase64url(hash));
}

async function passMac(stored: string, slug: string, expiry: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(stored), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${slug}\n${expiry}`))));
}

/** The cookie's name for the link `slug`. */
export const passCookieName = (slug: string): string => `lander_link_${slug.replaceAll('-', '_')}`;

/** The value of the cookie that opens `slug` (whose password is `stored`) until `now` + PASS_SECONDS. */
export async function passCookieValue(stored: string, slug: string, now = Date.now()): Promise<string> {
  const expiry = now + PASS_SECONDS * 1000;
  return `${expiry}.${await passMac(stored, slug, expiry)}`;
}

/** Whether the cookie `value` opens `slug` (whose password is `stored`) at `now`. */
export async function passCookieOpens(
  value: string | undefined,
  stored: string,
  slug: string,
  now = Date.now(),
): Promise<boolean> {
  const dot = value?.indexOf('.') ?? -1;
  if (!value || dot < 1) return false;
  const expiry = Number(value.slice(0, dot));
  if (!Number.isSafeInteger(expiry) || expiry <= now) return false;
  const expected = encoder.encode(await passMac(stored, slug, expiry));
  return sameBytes(expected, encoder.encode(value.slice(dot + 1)));
}
