/**
 * The exports bucket (docs/webhooks.md#exports) from Node, through wrangler's platform proxy: the
 * local store `npm start` serves (`.wrangler/state`, or `--persist-to DIR`), or Cloudflare's own for
 * an environment (wrangler must be logged in). The same pattern as bindings.ts, for one R2 binding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import { ROOT, TOOL_ENV } from './run.ts';

/** The parts of R2 the export script uses (scripts see Node's types only). */
export interface ExportsBucket {
  list(options: { prefix: string; cursor?: string }): Promise<{
    objects: { key: string; size: number }[];
    truncated: boolean;
    cursor?: string;
  }>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: Uint8Array | string): Promise<unknown>;
}

export interface BucketTarget {
  /** A wrangler environment (`production`); none: the local store. */
  env?: string;
  persistTo?: string;
}

/** Opens the EXPORTS bucket of `target`, runs `use` with it, and closes it. */
export async function withExportsBucket<T>(
  { env, persistTo }: BucketTarget,
  use: (bucket: ExportsBucket) => Promise<T>,
): Promise<T> {
  Object.assign(process.env, { WRANGLER_SEND_METRICS: TOOL_ENV.WRANGLER_SEND_METRICS });
  const local = env === undefined;
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env });
  const bucket = config.r2_buckets.find((binding: { binding: string }) => binding.binding === 'EXPORTS');
  if (!bucket?.bucket_name) throw new Error('wrangler.toml binds no EXPORTS bucket');
  const dir = mkdtempSync(join(tmpdir(), 'lander-exports-'));
  const configPath = join(dir, 'wrangler.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      r2_buckets: [{ binding: 'EXPORTS', bucket_name: bucket.bucket_name, remote: !local }],
    }),
  );
  const persist = local ? { path: join(persistTo ?? join(ROOT, '.wrangler/state'), 'v3') } : false;
  const proxy = await getPlatformProxy<{ EXPORTS: ExportsBucket }>({ configPath, persist, remoteBindings: !local });
  try {
    return await use(proxy.env.EXPORTS);
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
