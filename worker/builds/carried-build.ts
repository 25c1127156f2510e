/**
 * The build this worker carries (docs/builds.md): the client build it was bundled with, written by
 * the build-id plugin, with the route rules it applies. The worker answers from it when KV has no
 * build yet (a fresh local start) or cannot be read. Read once per isolate.
 */
import build from '../../dist/client/.vite/build.json';
import { type BuildManifest, buildManifest, type LatestBuild, parseLatestBuild } from '../../shared/build-manifest.ts';
import { routeRules } from '../../shared/route-rules.ts';

function carried(): LatestBuild {
  const latest = parseLatestBuild(build);
  if (!latest) throw new Error('dist/client/.vite/build.json is not a build record; run the client build');
  return latest;
}

/** `{ id, timestamp }` of the carried build. */
export const carriedBuild: LatestBuild = carried();

/** The carried build's manifest: its id, timestamp and route rules. */
export const carriedManifest: BuildManifest = buildManifest(carriedBuild, routeRules);
