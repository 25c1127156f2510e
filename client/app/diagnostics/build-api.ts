/**
 * The two build calls of docs/builds.md through the one HTTP client (client/app/http-client.ts: a GET
 * retried once on 408, 409, 425, 429, 500, 502, 503, 504, a network error or a timeout; a timer
 * per attempt). Answers are validated: a malformed one is an error like a failed request.
 */
import {
  type BuildManifest,
  type LatestBuild,
  parseBuildManifest,
  parseLatestBuild,
} from '../../../shared/build-manifest.ts';
import { http } from '../http-client.ts';

/** `latest.json`, with the current time as the query so no cache on the way answers it. */
export async function fetchLatestBuild(): Promise<LatestBuild> {
  const latest = parseLatestBuild(await http(`/assets/builds/latest.json?${Date.now()}`, { responseType: 'json' }));
  if (!latest) throw new Error('The latest-build record is malformed');
  return latest;
}

/** The manifest of build `id`. */
export async function fetchBuildManifest(id: string): Promise<BuildManifest> {
  const url = `/assets/builds/meta/${encodeURIComponent(id)}.json`;
  const manifest = parseBuildManifest(await http(url, { responseType: 'json' }));
  if (!manifest) throw new Error(`The manifest of build ${id} is malformed`);
  return manifest;
}

/** The HTTP status of a failed call (`HttpError`), if the server answered at all. */
export function fetchStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}
