/**
 * Applies the repository's D1 migrations (`migrations/`, wrangler.toml's `migrations_dir`) to the
 * funnel's database bound as `FUNNEL_DB`, through wrangler: the local store (`--local`, optionally
 * under `--persist-to`) or Cloudflare's (`--remote`, per environment). Applied ones are skipped.
 */
import { runTool } from './run.ts';

export interface D1Target {
  local: boolean;
  env?: string;
  persistTo?: string;
}

export function applyMigrations({ local, env, persistTo }: D1Target): void {
  const args = ['d1', 'migrations', 'apply', 'FUNNEL_DB', local ? '--local' : '--remote'];
  if (env) args.push('--env', env);
  if (local && persistTo) args.push('--persist-to', persistTo);
  // No terminal: wrangler takes its confirmation prompt's default (yes) instead of waiting.
  runTool('wrangler', args, { stdio: ['ignore', 'ignore', 'inherit'] });
}
