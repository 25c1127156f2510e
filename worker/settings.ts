/**
 * The environment's variables (wrangler.toml `[vars]`, the `DECODE_KEY` secret; docs/config.md) as one
 * typed object. Every part of the worker reads its settings here, never `env.X` strings: each variable
 * is parsed in one place, once per environment object (workerd hands the same one to every request of
 * an isolate). Bindings (KV, ASSETS) stay on `env`.
 */
import { adminToken } from './admin/admin-token.ts';
import { attributionSalt } from './attribution/salt.ts';
import { decodeKey } from './campaign/decode-key.ts';
import { funnelSalt } from './funnel/visitor-key.ts';
import { DEFAULT_RESOLVER } from './webhooks/resolve-host.ts';

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

function parse(env: Env): Settings {
  const seconds = Number(env.CONFIG_CACHE_SECONDS);
  return Object.freeze({
    env: env.LANDER_ENV === 'production' ? 'production' : 'development',
    diagnostics: env.DIAGNOSTICS === 'on',
    downloadOrigin: env.DOWNLOAD_ORIGIN,
    traceOrigin: env.TRACE_ORIGIN ?? '',
    traceAllowedOrigins: parseOrigins(env.TRACE_ALLOWED_ORIGINS),
    configCacheMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0,
    decodeKey: decodeKey(env),
    attributionSalt: attributionSalt(env),
    funnelSalt: funnelSalt(env),
    adminToken: adminToken(env),
    cookieless: env.COOKIELESS === 'on',
    webhookResolver: env.WEBHOOK_RESOLVER || DEFAULT_RESOLVER,
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
