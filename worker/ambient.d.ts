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
