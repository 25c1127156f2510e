/**
 * Writes keys to the KV namespace bound as `KV`, through wrangler: the local store (`--local`,
 * optionally under `--persist-to`) or Cloudflare's (`--remote`, per environment).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './run.ts';

export interface KvTarget {
  local: boolean;
  env?: string;
  persistTo?: string;
}

export interface KvEntry {
  key: string;
  value: string;
}

export function kvPut(entries: KvEntry[], { local, env, persistTo }: KvTarget): void {
  if (entries.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'lander-kv-'));
  try {
    const file = join(dir, 'entries.json');
    writeFileSync(file, JSON.stringify(entries));
    const args = ['kv', 'bulk', 'put', file, '--binding', 'KV', local ? '--local' : '--remote'];
    if (env) args.push('--env', env);
    if (local && persistTo) args.push('--persist-to', persistTo);
    runTool('wrangler', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
