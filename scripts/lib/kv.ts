/**
 * Writes keys to the KV namespace bound as `KV`, through wrangler: the local store (`--local`,
 * optionally under `--persist-to`) or Cloudflare's (`--remote`, per environment).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureTool, runTool } from './run.ts';

export interface KvTarget {
  local: boolean;
  env?: string;
  persistTo?: string;
}

export interface KvEntry {
  key: string;
  value: string;
  /** Stored beside the value (at most 1 kB); KV's list returns it without reading the value. */
  metadata?: Record<string, string>;
}

/** A key as KV's list returns it. */
export interface KvListed {
  name: string;
  metadata?: Record<string, string>;
}

function targetArgs({ local, env, persistTo }: KvTarget): string[] {
  const args = ['--binding', 'KV', local ? '--local' : '--remote'];
  if (env) args.push('--env', env);
  if (local && persistTo) args.push('--persist-to', persistTo);
  return args;
}

/** The keys that start with `prefix`, with their metadata. */
export function kvList(prefix: string, target: KvTarget): KvListed[] {
  return JSON.parse(captureTool('wrangler', ['kv', 'key', 'list', '--prefix', prefix, ...targetArgs(target)]));
}

/** The value of `key` as text, or null when the store has no such key. */
export function kvGet(key: string, target: KvTarget): string | null {
  if (!kvList(key, target).some((listed) => listed.name === key)) return null;
  return captureTool('wrangler', ['kv', 'key', 'get', key, '--text', ...targetArgs(target)]);
}

export function kvPut(entries: KvEntry[], { local, env, persistTo }: KvTarget): void {
  if (entries.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'lander-kv-'));
  try {
    const file = join(dir, 'entries.json');
    writeFileSync(file, JSON.stringify(entries));
    runTool('wrangler', ['kv', 'bulk', 'put', file, ...targetArgs({ local, env, persistTo })], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
