/**
 * A secret with a built-in development default (docs/config.md): development takes the secret, else
 * the default, so a fresh checkout works; production takes only a secret of its own, never the
 * default, and has none when it is missing. Every such secret (`DECODE_KEY`, `ATTRIBUTION_SALT`,
 * `FUNNEL_SALT`, `ADMIN_TOKEN`) is read through this one rule.
 */
export function devSecret(
  landerEnv: string | undefined,
  value: string | undefined,
  devDefault: string,
): string | undefined {
  if (landerEnv !== 'production') return value || devDefault;
  return value && value !== devDefault ? value : undefined;
}
