/**
 * The two build calls of docs/builds.md, read from KV:
 * - `GET /assets/builds/latest.json` (any query, a cache-buster): `{ id, timestamp }`, never cached.
 * - `GET /assets/builds/meta/{id}.json`: that build's manifest `{ id, timestamp, matcher }`,
 *   immutable (an id is a content hash, so its manifest never changes).
 * Static assets are served before the worker, but no file lives at these paths, so they land here.
 * An empty KV (a fresh local start) answers from the build the worker carries; an unknown id is a
 * 404; a KV failure or a read slower than 500 ms answers from the carried build too — never a 5xx.
 */
import { Hono } from 'hono';
import {
  BUILD_ID_PATTERN,
  type BuildManifest,
  KV_LATEST_BUILD,
  kvBuildManifestKey,
  type LatestBuild,
  parseBuildManifest,
  parseLatestBuild,
} from '../../shared/build-manifest.ts';
import type { AppEnv } from '../env.ts';
import { KV_READ_TIMEOUT_MS, readKvText } from '../kv/read-text.ts';
import { carriedBuild, carriedManifest } from './carried-build.ts';

const NO_CACHE = { 'cache-control': 'no-cache' };
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' };
// A stand-in for another build's manifest must not be cached under that build's URL.
const NO_STORE = { 'cache-control': 'no-store' };

/** Why a KV read gave no record. */
type Miss = 'absent' | 'failed';

/** Reads and validates a JSON record from KV; a throwing, slow or malformed read is a failure. */
async function readKv<T>(kv: KVNamespace, key: string, parse: (value: unknown) => T | undefined): Promise<T | Miss> {
  const read = await readKvText(kv, key);
  if (read.kind === 'absent') return 'absent';
  if (read.kind !== 'value') {
    const why = read.kind === 'timeout' ? `took over ${KV_READ_TIMEOUT_MS} ms` : 'failed';
    console.error(
      `KV read of ${key} ${why}; answering from the carried build`,
      read.kind === 'failed' ? read.error : '',
    );
    return 'failed';
  }
  let value: T | undefined;
  try {
    value = parse(JSON.parse(read.text));
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    console.error(`KV key ${key} holds no valid build record; answering from the carried build`);
    return 'failed';
  }
  return value;
}

export const builds = new Hono<AppEnv>();

builds.get('/latest.json', async (c) => {
  const latest = await readKv<LatestBuild>(c.env.KV, KV_LATEST_BUILD, parseLatestBuild);
  return c.json(typeof latest === 'string' ? carriedBuild : latest, 200, NO_CACHE);
});

builds.get('/meta/:file', async (c) => {
  const id = /^(.+)\.json$/.exec(c.req.param('file'))?.[1] ?? '';
  if (!BUILD_ID_PATTERN.test(id)) return c.json({ error: 'Unknown build' }, 404, NO_CACHE);
  const manifest = await readKv<BuildManifest>(c.env.KV, kvBuildManifestKey(id), parseBuildManifest);
  if (typeof manifest !== 'string') return c.json(manifest, 200, IMMUTABLE);
  if (id === carriedManifest.id) return c.json(carriedManifest, 200, IMMUTABLE);
  if (manifest === 'failed') return c.json(carriedManifest, 200, NO_STORE);
  return c.json({ error: 'Unknown build' }, 404, NO_CACHE);
});
