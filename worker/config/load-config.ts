/**
 * Reads the configuration document from KV (docs/config.md). A missing, unreadable, invalid or slow
 * document never breaks the page: the loader logs why and returns the bundled demo config, marked
 * as a fallback. A parsed copy is kept per isolate for `CONFIG_CACHE_SECONDS` and concurrent requests
 * share one read (kv/shared-read.ts); the last valid document stays parsed, so reading it again costs
 * no validation.
 */
import { CONFIG_KEY, type LanderConfig } from '../../shared/config/schema.ts';
import { KV_READ_TIMEOUT_MS, readKvText } from '../kv/read-text.ts';
import { sharedRead } from '../kv/shared-read.ts';
import { DEMO_CONFIG } from './demo.ts';
import { formatProblems, parseConfig } from './validate.ts';

export type ConfigFallbackReason = 'missing' | 'not-json' | 'invalid' | 'kv-error' | 'kv-timeout';

export interface LoadedConfig {
  config: LanderConfig;
  /** Why the demo config is served instead of KV's, or null when KV's document is in use. */
  fallback: ConfigFallbackReason | null;
}

/** The part of a KV namespace the loader uses (so tests can pass a fake). */
export type ConfigStore = Pick<KVNamespace, 'get'>;

export interface ConfigLoaderOptions {
  key?: string;
  /** Longest wait for KV before falling back (the page must not wait on a slow store). */
  timeoutMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

export type ConfigLoader = (kv: ConfigStore, ttlMs: number) => Promise<LoadedConfig>;

/** A fallback is kept only briefly, so a store that recovers is used again soon. */
const FALLBACK_TTL_MS = 5_000;

/** The last valid document read and its parsed form. */
interface LastRead {
  text: string;
  loaded: LoadedConfig;
}

async function read(
  kv: ConfigStore,
  key: string,
  timeoutMs: number,
  log: (m: string) => void,
  last: { current: LastRead | null },
): Promise<LoadedConfig> {
  const fallback = (reason: ConfigFallbackReason, detail: string): LoadedConfig => {
    log(`Config fallback (${reason}): ${detail}; serving the bundled demo config`);
    return { config: DEMO_CONFIG, fallback: reason };
  };
  const read = await readKvText(kv, key, timeoutMs);
  if (read.kind === 'failed') {
    const { error } = read;
    return fallback(
      'kv-error',
      `reading KV key "${key}" failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (read.kind === 'timeout') return fallback('kv-timeout', `KV did not answer within ${timeoutMs} ms`);
  if (read.kind === 'absent') return fallback('missing', `KV has no key "${key}"`);
  // The same document as last time is the same object: pages kept for it stay valid (page-cache.ts
  // keys by identity), and it is not validated again.
  if (last.current?.text === read.text) return last.current.loaded;
  const result = parseConfig(read.text);
  if (result.ok) {
    const loaded: LoadedConfig = { config: result.config, fallback: null };
    last.current = { text: read.text, loaded };
    return loaded;
  }
  const notJson = result.problems.length === 1 && result.problems[0]?.message.startsWith('not JSON');
  return notJson
    ? fallback('not-json', `KV key "${key}" is not JSON`)
    : fallback(
        'invalid',
        `KV key "${key}" does not match the schema:\n${formatProblems(result.problems.slice(0, 10))}`,
      );
}

/** A loader with its own per-isolate cache; `ttlMs` 0 reads KV on every call. */
export function createConfigLoader({
  key = CONFIG_KEY,
  timeoutMs = KV_READ_TIMEOUT_MS,
  now = Date.now,
  log = (message) => console.warn(message),
}: ConfigLoaderOptions = {}): ConfigLoader {
  const last: { current: LastRead | null } = { current: null };
  return sharedRead({
    read: async (kv) => {
      const loaded = await read(kv, key, timeoutMs, log, last);
      return { value: loaded, failed: loaded.fallback !== null };
    },
    // A shared read that went away: the joiner takes the demo config, as the read itself would have.
    late: () => {
      log(
        'Config fallback (kv-timeout): the shared KV read did not settle within its budget; serving the bundled demo config',
      );
      return { config: DEMO_CONFIG, fallback: 'kv-timeout' };
    },
    timeoutMs,
    failedTtlMs: FALLBACK_TTL_MS,
    now,
  });
}
