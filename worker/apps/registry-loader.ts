/**
 * Reads the app registry (docs/routes.md#apps) from KV under `APPS_KEY`, the way the configuration is
 * read (config/load-config.ts, kv/shared-read.ts): kept per isolate for `CONFIG_CACHE_SECONDS`, one
 * read shared by the requests that arrive while it is under way, within the KV time budget. A store
 * that fails, or a document that is not a valid registry, never breaks a page: the last good registry
 * read in this isolate is used, else the one app `default` on every host. No key: one app.
 */
import { APPS_KEY, type AppsRegistry, DEFAULT_APP, parseRegistry } from '../../shared/apps.ts';
import { KV_READ_TIMEOUT_MS, readKvText } from '../kv/read-text.ts';
import { sharedRead } from '../kv/shared-read.ts';

/** The registry as a request resolves it: each host's app and the ids; built once per document. */
export interface Apps {
  /** The document, or null when the deployment has none (one app `default` on every host). */
  registry: AppsRegistry | null;
  /** Every app id, `default` always among them. */
  ids: ReadonlySet<string>;
  /** Each listed host's app. */
  hostApps: ReadonlyMap<string, string>;
}

/** A deployment without a registry: the one app `default`, on every host. */
export const ONE_APP: Apps = Object.freeze({ registry: null, ids: new Set([DEFAULT_APP]), hostApps: new Map() });

/** A failed read is kept only briefly, so a store that recovers is used again soon. */
const FAILED_TTL_MS = 5_000;

export interface AppsLoader {
  (kv: Pick<KVNamespace, 'get'>, ttlMs: number): Promise<Apps>;
  /** The last registry this loader read (however old), or one app: what a request's app likely is. */
  lastKnown(): Apps;
  /** Whether a call with `ttlMs` now answers from the kept registry, without reading KV. */
  kept(ttlMs: number): boolean;
}

export interface AppsLoaderOptions {
  timeoutMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

/** The resolvable form of a valid registry. */
export function indexApps(registry: AppsRegistry): Apps {
  const ids = new Set([DEFAULT_APP]);
  const hostApps = new Map<string, string>();
  for (const app of registry.apps) {
    ids.add(app.id);
    for (const host of app.hosts) hostApps.set(host, app.id);
  }
  return Object.freeze({ registry, ids, hostApps });
}

/** A loader with its own per-isolate cache; `ttlMs` 0 reads KV on every call (but shares a read under way). */
export function createAppsLoader({
  timeoutMs = KV_READ_TIMEOUT_MS,
  now = Date.now,
  log = (message) => console.warn(message),
}: AppsLoaderOptions = {}): AppsLoader {
  // The last good registry and its text: the same text is the same object, not validated again.
  let last: { text: string; apps: Apps } | null = null;
  const fallback = (why: string): { value: Apps; failed: boolean } => {
    log(`Apps registry: ${why}; ${last ? 'keeping the last good registry' : 'serving the one app "default"'}`);
    return { value: last?.apps ?? ONE_APP, failed: true };
  };

  // When the last KV read started, whether it has settled, and whether it failed.
  const lastRead = { at: Number.NEGATIVE_INFINITY, settled: false, failed: false };

  async function read(kv: Pick<KVNamespace, 'get'>): Promise<{ value: Apps; failed: boolean }> {
    Object.assign(lastRead, { at: now(), settled: false });
    const answer = await readRegistry(kv);
    Object.assign(lastRead, { settled: true, failed: answer.failed });
    return answer;
  }

  async function readRegistry(kv: Pick<KVNamespace, 'get'>): Promise<{ value: Apps; failed: boolean }> {
    const result = await readKvText(kv, APPS_KEY, timeoutMs);
    if (result.kind === 'absent') {
      last = null;
      return { value: ONE_APP, failed: false };
    }
    if (result.kind === 'timeout') return fallback(`KV did not answer within ${timeoutMs} ms`);
    if (result.kind === 'failed') return fallback(`reading KV key "${APPS_KEY}" failed`);
    if (last?.text === result.text) return { value: last.apps, failed: false };
    const parsed = parseRegistry(result.text);
    if (!parsed.ok) {
      const first = parsed.problems[0];
      return fallback(`KV key "${APPS_KEY}" is not a valid registry (${first?.path}: ${first?.message})`);
    }
    last = { text: result.text, apps: indexApps(parsed.registry) };
    return { value: last.apps, failed: false };
  }

  const load = sharedRead({ read, late: () => last?.apps ?? ONE_APP, timeoutMs, failedTtlMs: FAILED_TTL_MS, now });
  return Object.assign(load, {
    lastKnown: () => last?.apps ?? ONE_APP,
    // The shared read keeps a value from the moment its read started (kv/shared-read.ts), as long.
    kept: (ttlMs: number) =>
      lastRead.settled && now() - lastRead.at < (lastRead.failed ? Math.min(ttlMs, FAILED_TTL_MS) : ttlMs),
  });
}
