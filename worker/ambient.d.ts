// Types `exports.default` (cloudflare:workers) in tests as this worker's default export.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import('./index.ts');
  }
}

// Secrets are not in wrangler.toml, so `wrangler types` cannot see them.
interface Env {
  /** 16-byte key for campaign tokens (`wrangler secret put DECODE_KEY`). */
  DECODE_KEY?: string;
  /** Keys every hash attribution stores (`wrangler secret put ATTRIBUTION_SALT`; docs/attribution.md). */
  ATTRIBUTION_SALT?: string;
}

// The operators' secrets and settings (docs/operators.md); none is required in development.
interface Env {
  /** Bearer token of the admin API (`wrangler secret put ADMIN_TOKEN`). */
  ADMIN_TOKEN?: string;
  /** Key of the daily visitor hashes (`wrangler secret put FUNNEL_SALT`). */
  FUNNEL_SALT?: string;
  /** Ed25519 key signing the audit log's daily head (`wrangler secret put AUDIT_SIGNING_KEY`). */
  AUDIT_SIGNING_KEY?: string;
  /** Ed25519 key signing privacy requests' receipts (`wrangler secret put PRIVACY_RECEIPT_KEY`). */
  PRIVACY_RECEIPT_KEY?: string;
  /** Cloudflare Access application audience tag: with ACCESS_TEAM_DOMAIN, Access signs operators in. */
  ACCESS_AUD?: string;
  /** Cloudflare Access team domain, e.g. `example.cloudflareaccess.com`. */
  ACCESS_TEAM_DOMAIN?: string;
  /** OpenID Connect provider's issuer (https URL): with OIDC_CLIENT_ID, it signs operators in. */
  OIDC_ISSUER?: string;
  /** Lander's client id at the OpenID Connect provider. */
  OIDC_CLIENT_ID?: string;
  /** Its client secret (`wrangler secret put OIDC_CLIENT_SECRET`); none: a public client with PKCE. */
  OIDC_CLIENT_SECRET?: string;
  /** Scopes asked for, space-separated; `openid email profile` by default. */
  OIDC_SCOPES?: string;
  /** The audience of the provider's access tokens for Lander's API; the client id's tokens are taken too. */
  OIDC_API_AUDIENCE?: string;
  /** HMAC key of the sign-in's cookies (`wrangler secret put SESSION_SECRET`). */
  SESSION_SECRET?: string;
}

// Webhooks (docs/webhooks.md#safety): optional, not in wrangler.toml.
interface Env {
  /** DNS-over-HTTPS JSON resolver that production checks endpoint names with; default Cloudflare's. */
  WEBHOOK_RESOLVER?: string;
}

// Conversions out (docs/conversions.md#trying-it-locally): development only, not in wrangler.toml.
interface Env {
  /** An origin every platform's requests go to instead of its own host, outside production: a local fake. */
  CONVERSIONS_ORIGIN?: string;
}

// Store postbacks (docs/store-postbacks.md#keys): optional, not in wrangler.toml.
interface Env {
  /** JSON `{ "<key id>": "<base64 DER P-256 key>" }` laid over Apple's bundled postback keys. */
  STORE_POSTBACK_KEYS?: string;
}

// Meta's install referrer (docs/attribution.md#metas-install-referrer): a secret, not in wrangler.toml.
interface Env {
  /** JSON `{ "<package>": "<Meta's install referrer decryption key, 64 hex>" }`. */
  META_REFERRER_KEYS?: string;
}

// Privacy (docs/privacy.md): optional, commented in wrangler.toml.
interface Env {
  /** JSON object of days each store keeps its data, e.g. `{"visitors": 90}` (docs/privacy.md#retention). */
  RETENTION?: string;
  /** `eu`, `fedramp` or empty: where D1, Durable Objects and R2 keep data (docs/privacy.md#where-data-lives). */
  JURISDICTION?: string;
}
