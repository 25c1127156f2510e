/**
 * The environment's variables and secrets (wrangler.toml `[vars]`, `wrangler secret put`; README,
 * docs/config.md) as one typed object: every variable with its parse, every secret with its
 * development default and what production does without it. Every part of the worker reads its
 * settings here, never `env.X` strings: each is parsed in one place, once per environment object
 * (workerd hands the same one to every request of an isolate). Bindings (KV, D1, …) stay on `env`.
 */

import { type Jurisdiction, parseJurisdiction } from './lib/jurisdiction.ts';
import { DEFAULT_RETENTION, parseRetention, type Retention } from './lib/retention.ts';

/**
 * The secrets with a built-in development default, so a fresh checkout works. Development takes the
 * secret, else the default; production takes only a secret of its own — never the default — and
 * without one does what `without` says, logged once per isolate rather than on every request.
 */
export const SECRETS = {
  /** Key of campaign tokens (docs/campaign-links.md); 16 bytes. */
  DECODE_KEY: { dev: 'LanderDevKey2026', without: 'campaign decoding is off in production' },
  /** Key of every hash attribution stores (docs/attribution.md). */
  ATTRIBUTION_SALT: { dev: 'lander-dev-attribution-salt', without: '/api/a/* answers 503 in production' },
  /** Key of the funnel's daily visitor hashes (docs/operators.md). */
  FUNNEL_SALT: { dev: 'lander-dev-funnel-salt', without: 'the funnel counts no visitors in production' },
  /** Bearer token of the admin API (docs/operators.md). */
  ADMIN_TOKEN: { dev: 'lander-dev-admin', without: 'only Cloudflare Access signs operators in, in production' },
  /**
   * Ed25519 private key that signs the audit log's daily head (docs/operators.md#audit-log): a JWK, or
   * PKCS8 in base64. The development key is public, here: its signatures prove nothing.
   */
  AUDIT_SIGNING_KEY: {
    dev: '{"kty":"OKP","crv":"Ed25519","d":"jL_pC0vFHb5Zb23PStkq1Az_g66leOC3XhqoXcFGjrg","x":"4kecRdSUSSQYe4xenMcnRdsff4l0_9PD7DekM0W_T3c"}',
    without: "the audit log's daily head is not signed in production (counted as lost audit-heads)",
  },
  /**
   * Ed25519 private key that signs privacy requests' receipts (docs/privacy.md#requests-erasure-and-access):
   * a JWK, or PKCS8 in base64. The development key is public, here: its receipts prove nothing.
   */
  PRIVACY_RECEIPT_KEY: {
    dev: '{"crv":"Ed25519","d":"32cd5hOzrS7kmk_R9wi7Ykz-7iHocnvkanoIDvUIF7Q","x":"_MElaRb0pammMw4nJDtRWyU41iwBbVeRFeabgcXw_ok","kty":"OKP"}',
    without: 'privacy requests are taken but not completed in production (no receipt can be signed)',
  },
  /** HMAC key of the OpenID Connect sign-in's cookies (docs/operators.md#openid-connect). */
  SESSION_SECRET: {
    dev: 'lander-dev-session-secret',
    without: 'OpenID Connect sign-in answers 503 in production',
  },
} as const;

export type SecretName = keyof typeof SECRETS;

/** Cloudflare's public DNS-over-HTTPS resolver: where webhook hosts are looked up (docs/webhooks.md). */
export const DEFAULT_RESOLVER = 'https://cloudflare-dns.com/dns-query';

export const DEV_DECODE_KEY: string = SECRETS.DECODE_KEY.dev;
export const DEV_ATTRIBUTION_SALT: string = SECRETS.ATTRIBUTION_SALT.dev;
export const DEV_FUNNEL_SALT: string = SECRETS.FUNNEL_SALT.dev;
export const DEV_ADMIN_TOKEN: string = SECRETS.ADMIN_TOKEN.dev;

// The secrets whose absence this isolate has logged.
const reported = new Set<SecretName>();

/** The secret `name` of `env` by the rule of `SECRETS`, or undefined when there is none to use. */
export function secretOf(
  env: { LANDER_ENV?: string } & Partial<Record<SecretName, string>>,
  name: SecretName,
): string | undefined {
  const { dev, without } = SECRETS[name];
  const value = env[name];
  if (env.LANDER_ENV !== 'production') return value || dev;
  if (value && value !== dev) return value;
  if (!reported.has(name)) {
    reported.add(name);
    console.error(`${name} ${value ? 'is the development key' : 'is not set'}: ${without}`);
  }
  return undefined;
}

/** OpenID Connect sign-in of the admin API and the console (docs/operators.md#openid-connect). */
export interface OidcSettings {
  /** `OIDC_ISSUER`: the provider's issuer identifier, discovered at `/.well-known/openid-configuration`. */
  issuer: URL;
  /** `OIDC_CLIENT_ID`: Lander's client id at the provider, and the ID tokens' audience. */
  clientId: string;
  /** `OIDC_CLIENT_SECRET`; none: a public client, PKCE alone. */
  clientSecret: string | undefined;
  /** `OIDC_SCOPES`, `openid email profile` by default. */
  scopes: string;
  /**
   * The audiences a bearer JWT of the provider may name (docs/operators.md#machine-clients): the client
   * id (its ID tokens), and `OIDC_API_AUDIENCE` when set (its access tokens for Lander's API).
   */
  audiences: readonly string[];
  /** Development only: an issuer at `http://127.0.0.1:<port>` or `http://localhost:<port>` (a local provider). */
  loopback: boolean;
}

export const DEFAULT_OIDC_SCOPES = 'openid email profile';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The OpenID Connect settings, or undefined (logged when half set or unreadable): `OIDC_ISSUER` an
 * https URL (development also takes http on a loopback host) and `OIDC_CLIENT_ID` both set.
 */
export function parseOidc(
  env: Pick<Env, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_SCOPES' | 'OIDC_API_AUDIENCE'>,
  production: boolean,
): OidcSettings | undefined {
  const { OIDC_ISSUER: written, OIDC_CLIENT_ID: clientId } = env;
  if (!written && !clientId) return undefined;
  const issuer = written && URL.canParse(written) ? new URL(written) : undefined;
  const loopback = !production && issuer?.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  if (!issuer || (issuer.protocol !== 'https:' && !loopback) || issuer.search || issuer.hash || !clientId) {
    console.error('OIDC_ISSUER (an https URL) and OIDC_CLIENT_ID are both needed: OpenID Connect sign-in is off');
    return undefined;
  }
  const asked = env.OIDC_SCOPES?.trim().split(/\s+/).filter(Boolean) ?? [];
  // `openid` makes it OpenID Connect: always asked for.
  const scopes = asked.length ? [...new Set(['openid', ...asked])].join(' ') : DEFAULT_OIDC_SCOPES;
  const apiAudience = env.OIDC_API_AUDIENCE?.trim();
  const audiences = apiAudience && apiAudience !== clientId ? [clientId, apiAudience] : [clientId];
  return { issuer, clientId, clientSecret: env.OIDC_CLIENT_SECRET || undefined, scopes, audiences, loopback };
}

export interface Settings {
  /** `LANDER_ENV`: anything but `production` is development. */
  env: 'development' | 'production';
  /** `DIAGNOSTICS === 'on'`: the `/test` page and the diagnostics panel. */
  diagnostics: boolean;
  /** `DOWNLOAD_ORIGIN`: where APKs come from until the browser finds a reachable domain. */
  downloadOrigin: string;
  /** `TRACE_ORIGIN`; empty: the page's own origin. */
  traceOrigin: string;
  /** `TRACE_ALLOWED_ORIGINS`: the other origins that may call the trace service with credentials. */
  traceAllowedOrigins: ReadonlySet<string>;
  /** `CONFIG_CACHE_SECONDS` in ms; anything unreadable means no cache. */
  configCacheMs: number;
  /** The campaign decode key (`DECODE_KEY`, or the development default). */
  decodeKey: string | undefined;
  /** `ATTRIBUTION_SALT`, or the development default; none: attribution answers 503 (docs/attribution.md). */
  attributionSalt: string | undefined;
  /** `FUNNEL_SALT`, or the development default; none: the funnel counts no visitors (docs/operators.md). */
  funnelSalt: string | undefined;
  /** `ADMIN_TOKEN`, or the development default; none: only Cloudflare Access signs operators in. */
  adminToken: string | undefined;
  /** `AUDIT_SIGNING_KEY`, or the development key; none: the audit log's daily head is not signed. */
  auditSigningKey: string | undefined;
  /** `PRIVACY_RECEIPT_KEY`, or the development key; none: privacy requests wait, unsigned, for a key. */
  privacyReceiptKey: string | undefined;
  /** OpenID Connect sign-in (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, …); undefined: off. */
  oidc: OidcSettings | undefined;
  /** `SESSION_SECRET`, or the development default: the sign-in cookies' key; none: OpenID Connect answers 503. */
  sessionSecret: string | undefined;
  /**
   * `COOKIELESS === 'on'` (docs/operators.md): no cookie, no fingerprint, visitors counted only by the
   * day's keyed hash of address and agent.
   */
  cookieless: boolean;
  /**
   * `WEBHOOK_RESOLVER`, or Cloudflare's DNS-over-HTTPS: where production resolves a webhook endpoint's
   * name to check its addresses (docs/webhooks.md#safety).
   */
  webhookResolver: string;
  /**
   * `STORE_POSTBACK_KEYS`: a JSON object of key id → base64 DER P-256 public key laid over Apple's
   * bundled postback keys (docs/store-postbacks.md#keys); unreadable: none, logged.
   */
  storePostbackKeys: Readonly<Record<string, string>>;
  /**
   * `META_REFERRER_KEYS`: a JSON object of package → the app's install referrer decryption key from
   * Meta (docs/attribution.md#metas-install-referrer); development without it: the demo app's public
   * key; production: only its own keys, never the development one.
   */
  metaReferrerKeys: Readonly<Record<string, string>>;
  /**
   * `RETENTION`: days each store keeps its data within its bounds (lib/retention.ts,
   * docs/privacy.md#retention); unreadable or out of bounds: every default, logged.
   */
  retention: Retention;
  /**
   * `JURISDICTION`: `eu` or `fedramp` keeps the Durable Objects there (lib/jurisdiction.ts,
   * docs/privacy.md#where-data-lives); empty: none; anything else: none, logged.
   */
  jurisdiction: Jurisdiction | undefined;
}

/**
 * Parses a comma-separated origin list into normalised origins (`https://a.example`, no path or
 * trailing slash). Entries that are not http(s) origins — `*`, `null`, typos — are left out.
 */
export function parseOrigins(list: string | undefined): Set<string> {
  const origins = new Set<string>();
  for (const entry of (list ?? '').split(',')) {
    const text = entry.trim();
    if (!URL.canParse(text)) continue;
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
  }
  return origins;
}

/** A JSON object of string values, or {} (logged) when `text` is something else. */
export function parseKeyTable(name: string, text: string | undefined): Record<string, string> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value);
      if (entries.every(([, key]) => typeof key === 'string'))
        return Object.fromEntries(entries) as Record<string, string>;
    }
  } catch {
    // Reported below, as any other shape.
  }
  console.error(`${name} is not a JSON object of strings: ignored`);
  return {};
}

/**
 * The development key of Meta's install referrer for the demo app: public, here, so `npm run try-install`
 * and the tests can seal a referrer; it opens nothing in production.
 */
export const DEV_META_REFERRER_KEY = '6c616e6465722d6465762d6d6574612d72656665727265722d6b65792d323032';
const DEV_META_REFERRER_KEYS = { 'com.pebble.notes': DEV_META_REFERRER_KEY };

/** `META_REFERRER_KEYS` by the rule of `SECRETS`: development falls back to the demo key; production drops it. */
export function metaReferrerKeysOf(text: string | undefined, production: boolean): Record<string, string> {
  const keys = parseKeyTable('META_REFERRER_KEYS', text);
  if (!production) return text ? keys : { ...DEV_META_REFERRER_KEYS };
  const own = Object.entries(keys).filter(([, key]) => key.toLowerCase() !== DEV_META_REFERRER_KEY);
  if (own.length < Object.keys(keys).length) console.error('META_REFERRER_KEYS holds the development key: ignored');
  return Object.fromEntries(own);
}

/** `RETENTION` by its rules, or the defaults (logged with each problem) when it breaks one. */
export function retentionOf(text: string | undefined): Retention {
  const result = parseRetention(text);
  if (result.ok) return result.retention;
  console.error(`RETENTION refused, every default kept: ${result.problems.join('; ')}`);
  return DEFAULT_RETENTION;
}

/** `JURISDICTION`, or none (logged) when it names no jurisdiction. */
export function jurisdictionOf(text: string | undefined): Jurisdiction | undefined {
  const result = parseJurisdiction(text);
  if (result.ok) return result.jurisdiction;
  console.error(`${result.problem}: Durable Objects are reached without a jurisdiction`);
  return undefined;
}

function parse(env: Env): Settings {
  const seconds = Number(env.CONFIG_CACHE_SECONDS);
  return Object.freeze({
    env: env.LANDER_ENV === 'production' ? 'production' : 'development',
    diagnostics: env.DIAGNOSTICS === 'on',
    downloadOrigin: env.DOWNLOAD_ORIGIN,
    traceOrigin: env.TRACE_ORIGIN ?? '',
    traceAllowedOrigins: parseOrigins(env.TRACE_ALLOWED_ORIGINS),
    configCacheMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0,
    decodeKey: secretOf(env, 'DECODE_KEY'),
    attributionSalt: secretOf(env, 'ATTRIBUTION_SALT'),
    funnelSalt: secretOf(env, 'FUNNEL_SALT'),
    adminToken: secretOf(env, 'ADMIN_TOKEN'),
    auditSigningKey: secretOf(env, 'AUDIT_SIGNING_KEY'),
    privacyReceiptKey: secretOf(env, 'PRIVACY_RECEIPT_KEY'),
    oidc: parseOidc(env, env.LANDER_ENV === 'production'),
    sessionSecret: secretOf(env, 'SESSION_SECRET'),
    cookieless: env.COOKIELESS === 'on',
    webhookResolver: env.WEBHOOK_RESOLVER || DEFAULT_RESOLVER,
    storePostbackKeys: Object.freeze(parseKeyTable('STORE_POSTBACK_KEYS', env.STORE_POSTBACK_KEYS)),
    metaReferrerKeys: Object.freeze(metaReferrerKeysOf(env.META_REFERRER_KEYS, env.LANDER_ENV === 'production')),
    retention: retentionOf(env.RETENTION),
    jurisdiction: jurisdictionOf(env.JURISDICTION),
  });
}

// Held by the environment object itself: a test's own env gets its own settings, and nothing to evict.
const parsed = new WeakMap<object, Settings>();

/** The settings of `env`, parsed on first use. */
export function settingsOf(env: Env): Settings {
  let settings = parsed.get(env);
  if (!settings) {
    settings = parse(env);
    parsed.set(env, settings);
  }
  return settings;
}
