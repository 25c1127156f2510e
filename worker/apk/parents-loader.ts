/**
 * The page's record of uploaded parents (parents.ts), read from KV as the configuration is
 * (config/load-config.ts, docs/config.md), through the same shared read (kv/shared-read.ts): kept per
 * isolate for `CONFIG_CACHE_SECONDS`, one read shared by the requests that arrive while it is under
 * way, within the KV time budget. A missing,
 * unreadable, invalid or slow record means no parent: the page keeps its plain APK links. The same
 * record text is the same object, so pages kept for it stay valid (render/page-cache.ts keys by identity).
 */
import type { MiddlewareHandler } from 'hono';
import { appKvKey } from '../../shared/apps.ts';
import type { AppEnv } from '../env.ts';
import { KV_READ_TIMEOUT_MS, readKvText } from '../kv/read-text.ts';
import { sharedRead } from '../kv/shared-read.ts';
import { settingsOf } from '../settings.ts';
import { type ApkParents, NO_PARENTS, PARENTS_KEY, parseParents } from './parents.ts';

/** A failed read is kept only briefly, so a store that recovers is used again soon. */
const FAILED_TTL_MS = 5_000;

export type ParentsLoader = (kv: Pick<KVNamespace, 'get'>, ttlMs: number) => Promise<ApkParents>;

export interface ParentsLoaderOptions {
  /** The record's KV key: `apk:parents` for the default app, `app:<id>:apk:parents` for another. */
  key?: string;
  timeoutMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

/** A loader with its own per-isolate cache; `ttlMs` 0 reads KV on every call (but shares a read under way). */
export function createParentsLoader({
  key = PARENTS_KEY,
  timeoutMs = KV_READ_TIMEOUT_MS,
  now = Date.now,
  log = (message) => console.warn(message),
}: ParentsLoaderOptions = {}): ParentsLoader {
  let last: { text: string; parents: ApkParents } | null = null;

  async function read(kv: Pick<KVNamespace, 'get'>): Promise<{ value: ApkParents; failed: boolean }> {
    const result = await readKvText(kv, key, timeoutMs);
    if (result.kind === 'absent') return { value: NO_PARENTS, failed: false };
    if (result.kind !== 'value') {
      log(`APK parents: the KV read ${result.kind === 'timeout' ? 'timed out' : 'failed'}; plain APK links`);
      return { value: NO_PARENTS, failed: true };
    }
    if (last?.text === result.text) return { value: last.parents, failed: false };
    const parents = parseParents(result.text);
    if (!parents) {
      log(`APK parents: KV key "${key}" is not a valid record; plain APK links`);
      return { value: NO_PARENTS, failed: true };
    }
    last = { text: result.text, parents: Object.freeze(parents) };
    return { value: last.parents, failed: false };
  }

  return sharedRead({ read, late: () => NO_PARENTS, timeoutMs, failedTtlMs: FAILED_TTL_MS, now });
}

// One loader, and so one cache, per app and isolate (docs/apk-stamping.md: each app's record).
const loaders = new Map<string, ParentsLoader>();

function loaderOf(app: string): ParentsLoader {
  let load = loaders.get(app);
  if (!load) {
    load = createParentsLoader({ key: appKvKey(app, PARENTS_KEY) });
    loaders.set(app, load);
  }
  return load;
}

/** Starts reading `app`'s parents record (apps/request-app.ts `prefetch`); the middleware takes the read. */
export function startParentsRead(env: Env, app: string): Promise<ApkParents> {
  return loaderOf(app)(env.KV, settingsOf(env).configCacheMs);
}

/**
 * Starts reading the uploaded parents and puts the read on the context (`apkParents`) for the page
 * to await. Mounted before the configuration's middleware: under a slow KV the two reads share one
 * 500 ms budget instead of adding two (docs/config.md). The read never rejects.
 */
export function apkParents(): MiddlewareHandler<AppEnv> {
  return async function apkParentsMiddleware(c, next) {
    const app = c.get('app');
    const started = c.get('prefetched');
    c.set(
      'apkParents',
      started?.app === app ? started.parents : loaderOf(app)(c.env.KV, settingsOf(c.env).configCacheMs),
    );
    await next();
  };
}
