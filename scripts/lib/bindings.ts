/**
 * The worker's R2 and KV bindings from Node, through wrangler's platform proxy: the local store
 * `npm start` serves (`.wrangler/state`, or `--persist-to DIR` as `npm start` takes it), or
 * Cloudflare's own for an environment (wrangler must be logged in). Only the bindings asked for are
 * opened, as wrangler.toml names them for the environment: the worker's Durable Objects need the
 * worker, which a script does not run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import { ROOT, TOOL_ENV } from './run.ts';

export interface BindingsTarget {
  local: boolean;
  env?: string;
  persistTo?: string;
}

/** The parts of R2 the scripts use (scripts see Node's types only). */
export interface Bucket {
  put(
    key: string,
    value: Uint8Array | string,
    options?: { httpMetadata?: { contentType: string }; customMetadata?: Record<string, string> },
  ): Promise<unknown>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  list(options: { prefix: string; cursor?: string }): Promise<{
    objects: { key: string; size: number }[];
    truncated: boolean;
    cursor?: string;
  }>;
}

/** The parts of KV the scripts use. */
export interface Namespace {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}

/** Which bindings to open: R2 buckets and KV namespaces by their binding names in wrangler.toml. */
export interface Wanted<B extends string, K extends string> {
  buckets: readonly B[];
  namespaces: readonly K[];
}

type Named = { binding: string };

/** Opens the `wanted` bindings of `target`, runs `use` with them, and closes them. */
export async function withBindings<B extends string, K extends string, T>(
  { local, env, persistTo }: BindingsTarget,
  wanted: Wanted<B, K>,
  use: (bindings: Record<B, Bucket> & Record<K, Namespace>) => Promise<T>,
): Promise<T> {
  Object.assign(process.env, { WRANGLER_SEND_METRICS: TOOL_ENV.WRANGLER_SEND_METRICS });
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env });
  const r2_buckets = wanted.buckets.map((name) => {
    const bucket = config.r2_buckets.find((binding: Named) => binding.binding === name);
    if (!bucket?.bucket_name) throw new Error(`wrangler.toml binds no ${name} bucket`);
    return { binding: name, bucket_name: bucket.bucket_name, remote: !local };
  });
  const kv_namespaces = wanted.namespaces.map((name) => {
    const kv = config.kv_namespaces.find((binding: Named) => binding.binding === name);
    if (!kv?.id) throw new Error(`wrangler.toml binds no ${name} namespace`);
    return { binding: name, id: kv.id, remote: !local };
  });
  const dir = mkdtempSync(join(tmpdir(), 'lander-bindings-'));
  const configPath = join(dir, 'wrangler.json');
  const { name, compatibility_date } = config;
  writeFileSync(configPath, JSON.stringify({ name, compatibility_date, r2_buckets, kv_namespaces }));
  // `wrangler dev` keeps local state in .wrangler/state/v3, or DIR/v3 with `--persist-to DIR`.
  const persist = local ? { path: join(persistTo ?? join(ROOT, '.wrangler/state'), 'v3') } : false;
  const proxy = await getPlatformProxy<Record<B, Bucket> & Record<K, Namespace>>({
    configPath,
    persist,
    remoteBindings: !local,
  });
  try {
    return await use(proxy.env);
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an APK upload writes to (docs/apk-stamping.md). */
export const UPLOAD = { buckets: ['APK_PARENTS'], namespaces: ['KV'] } as const;
/** What `npm run export` reads (docs/webhooks.md#exports). */
export const EXPORTS = { buckets: ['EXPORTS'], namespaces: [] } as const;
