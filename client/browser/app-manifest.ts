/**
 * The running build's route rules, from its manifest (docs/builds.md), fetched once. The docs/builds.md error
 * rules: a 404 or 403 from the manifest fetch silently means "no rules"; any other failure is
 * rethrown to whoever needs the rules (the next navigation), which also asks again next time.
 * Callers that only warm the cache log a failure to the console and carry on.
 */
import type { RouteRule } from '../../shared/route-rules.ts';
import { fetchBuildManifest, fetchStatus } from '../app/diagnostics/build-api.ts';

/** Statuses that mean "this build has no manifest here": tolerated silently. */
const SILENT_STATUSES = new Set([404, 403]);

/** A memoised loader of build `buildId`'s route rules. */
export function routeRulesLoader(buildId: string): () => Promise<readonly RouteRule[]> {
  let pending: Promise<readonly RouteRule[]> | undefined;
  return function loadRouteRules() {
    pending ??= fetchBuildManifest(buildId).then(
      (manifest) => manifest.matcher,
      (error: unknown) => {
        const status = fetchStatus(error);
        if (status !== undefined && SILENT_STATUSES.has(status)) return [];
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}
