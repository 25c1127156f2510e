/**
 * Serves the production worker bundle (`wrangler deploy --dry-run --outdir dist/worker`) on
 * workerd through miniflare's API: requests go straight to workerd's socket, without wrangler
 * dev's proxy (which caps every page near 1,000 requests/s on a 2-core machine).
 */
import { readFileSync } from 'node:fs';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { ROOT } from '../lib/run.ts';

export interface Served {
  url: string;
  miniflare: Miniflare;
}

function wranglerVars(): Record<string, string> {
  const toml = readFileSync(`${ROOT}wrangler.toml`, 'utf8');
  const section = /\[vars\]\n([\s\S]*?)(\n\[|$)/.exec(toml)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const line of section.split('\n')) {
    const match = /^(\w+)\s*=\s*"(.*)"/.exec(line.trim());
    if (match?.[1]) vars[match[1]] = match[2] ?? '';
  }
  return vars;
}

function compatibilityDate(): string {
  return /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(`${ROOT}wrangler.toml`, 'utf8'))?.[1] ?? '2026-10-01';
}

export async function serveProduction(kv: Record<string, string> = {}): Promise<Served> {
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      // Logging each request to Node would measure the log channel, not the worker.
      logRequests: false,
      name: 'lander',
      modules: true,
      modulesRoot: `${ROOT}dist/worker`,
      scriptPath: `${ROOT}dist/worker/index.js`,
      compatibilityDate: compatibilityDate(),
      compatibilityFlags: ['nodejs_compat'],
      kvNamespaces: ['KV'],
      bindings: wranglerVars(),
      assets: { directory: `${ROOT}dist/client`, binding: 'ASSETS', routerConfig: { has_user_worker: true } },
    }),
  );
  const url = (await miniflare.ready).origin;
  const namespace = (await miniflare.getKVNamespace('KV')) as unknown as KVNamespace;
  for (const [key, value] of Object.entries(kv)) await namespace.put(key, value);
  return { url, miniflare };
}
