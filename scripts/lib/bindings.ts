/**
 * The worker's bindings from Node, through wrangler's platform proxy: the local store `npm start`
 * serves (`.wrangler/state`, or `--persist-to DIR` as `npm start` takes it), or Cloudflare's own for
 * an environment (wrangler must be logged in).
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

/** The bindings an upload writes to: the parts of R2 and KV it uses (scripts see Node's types only). */
export interface UploadBindings {
  APK_PARENTS: {
    put(
      key: string,
      value: Uint8Array,
      options: { httpMetadata: { contentType: string }; customMetadata: Record<string, string> },
    ): Promise<unknown>;
  };
  KV: { get(key: string, type: 'text'): Promise<string | null>; put(key: string, value: string): Promise<void> };
}

type Named = { binding: string };

/** Opens the bindings, runs `use` with them, and closes them. */
export async function withBindings<T>(
  { local, env, persistTo }: BindingsTarget,
  use: (bindings: UploadBindings) => Promise<T>,
): Promise<T> {
  Object.assign(process.env, { WRANGLER_SEND_METRICS: TOOL_ENV.WRANGLER_SEND_METRICS });
  // The two bindings only, as wrangler.toml names them for the environment (remote unless local):
  // the worker's Durable Objects need the worker, which an upload does not run.
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env });
  const bucket = config.r2_buckets.find((binding: Named) => binding.binding === 'APK_PARENTS');
  const kv = config.kv_namespaces.find((binding: Named) => binding.binding === 'KV');
  if (!bucket?.bucket_name || !kv?.id) throw new Error('wrangler.toml binds no APK_PARENTS bucket or KV namespace');
  const dir = mkdtempSync(join(tmpdir(), 'lander-bindings-'));
  const configPath = join(dir, 'wrangler.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      r2_buckets: [{ binding: 'APK_PARENTS', bucket_name: bucket.bucket_name, remote: !local }],
      kv_namespaces: [{ binding: 'KV', id: kv.id, remote: !local }],
    }),
  );
  // `wrangler dev` keeps local state in .wrangler/state/v3, or DIR/v3 with `--persist-to DIR`.
  const persist = local ? { path: join(persistTo ?? join(ROOT, '.wrangler/state'), 'v3') } : false;
  const proxy = await getPlatformProxy<UploadBindings>({ configPath, persist, remoteBindings: !local });
  try {
    return await use(proxy.env);
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
