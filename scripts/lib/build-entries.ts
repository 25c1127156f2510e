/**
 * The KV entries of the client build in dist/ (docs/builds.md): its manifest under
 * `builds:meta:{id}` and the `builds:latest` record, made from the build's `.vite/build.json` and
 * the route rules — the same values the worker carries.
 */
import { readFileSync } from 'node:fs';
import {
  buildManifest,
  KV_LATEST_BUILD,
  kvBuildManifestKey,
  type LatestBuild,
  parseLatestBuild,
} from '../../shared/build-manifest.ts';
import { routeRules } from '../../shared/route-rules.ts';
import { BUILD_FILE } from './build-id-plugin.ts';
import type { KvEntry } from './kv.ts';
import { ROOT } from './run.ts';

export interface BuildEntries {
  build: LatestBuild;
  manifest: KvEntry;
  latest: KvEntry;
}

/** Entries for the build in `dir` (default dist/client); throws when there is no build there. */
export function buildEntries(dir = `${ROOT}dist/client`): BuildEntries {
  const file = `${dir}/${BUILD_FILE}`;
  let build: LatestBuild | undefined;
  try {
    build = parseLatestBuild(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(`Cannot read ${file}; run the client build first (npm run build)`, { cause: error });
  }
  if (!build) throw new Error(`${file} is not a build record; run the client build again`);
  return {
    build,
    manifest: { key: kvBuildManifestKey(build.id), value: JSON.stringify(buildManifest(build, routeRules)) },
    latest: { key: KV_LATEST_BUILD, value: JSON.stringify(build) },
  };
}

/** Both entries of the build in dist/, for seeding a store (manifest first, then `latest`). */
export function buildSeed(): KvEntry[] {
  const { manifest, latest } = buildEntries();
  return [manifest, latest];
}
