/**
 * Build identity (docs/builds.md): which client build is running, when it was built, and its route
 * rules in a form that travels as JSON (`matcher`). The worker serves these from KV, or from the
 * build it carries; the browser reads them to apply route rules before navigating (docs/routes.md) and to
 * notice a newer deploy (docs/builds.md). Values read from KV or the network are validated before use.
 */
import { isSafeTarget, type RouteRule } from './route-rules.ts';

/** `latest.json`: the build a fresh page load would get. */
export interface LatestBuild {
  /** Content hash of the client build and its route rules. */
  id: string;
  /** When the build was made, in ms since the epoch. */
  timestamp: number;
}

/** `meta/{id}.json`: one build and its route rules. */
export interface BuildManifest extends LatestBuild {
  matcher: RouteRule[];
}

/** What a build id looks like: URL- and KV-key-safe, so a path segment can be checked before use. */
export const BUILD_ID_PATTERN = /^[\w-]{1,64}$/;

/** KV key of the latest build. */
export const KV_LATEST_BUILD = 'builds:latest';

/** KV key of one build's manifest. */
export function kvBuildManifestKey(id: string): string {
  return `builds:meta:${id}`;
}

// Read by every visitor's page after it loads (client/browser/build-check.ts): checked field by field
// here rather than with the schema library the console and the worker share, which would otherwise
// travel in the visitors' deferred JavaScript with all the console's schemas (docs/benchmarks.md).
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type RedirectStatus = NonNullable<RouteRule['redirect']['status']>;
const REDIRECT_STATUSES: ReadonlySet<unknown> = new Set<RedirectStatus>([301, 302, 307, 308]);

/** A route rule as it travels, or undefined when it is not one (its status optional, nothing extra kept). */
function parseRule(value: unknown): RouteRule | undefined {
  if (!isRecord(value) || !isRecord(value.redirect)) return undefined;
  const { path } = value;
  const { to, status } = value.redirect;
  if (typeof path !== 'string' || !path.startsWith('/')) return undefined;
  // A manifest's target ends up in `location.href`: never `javascript:` or a protocol-relative URL.
  if (typeof to !== 'string' || !isSafeTarget(to)) return undefined;
  if (status === undefined) return { path, redirect: { to } };
  return REDIRECT_STATUSES.has(status) ? { path, redirect: { to, status: status as RedirectStatus } } : undefined;
}

/** The latest-build record in `value`, or undefined when it is not one. */
export function parseLatestBuild(value: unknown): LatestBuild | undefined {
  if (!isRecord(value)) return undefined;
  const { id, timestamp } = value;
  if (typeof id !== 'string' || !BUILD_ID_PATTERN.test(id)) return undefined;
  return typeof timestamp === 'number' && Number.isInteger(timestamp) && timestamp >= 0 ? { id, timestamp } : undefined;
}

/** The build manifest in `value`, or undefined when it is not one. */
export function parseBuildManifest(value: unknown): BuildManifest | undefined {
  const latest = parseLatestBuild(value);
  if (!latest || !isRecord(value) || !Array.isArray(value.matcher)) return undefined;
  const matcher: RouteRule[] = [];
  for (const item of value.matcher) {
    const rule = parseRule(item);
    if (!rule) return undefined;
    matcher.push(rule);
  }
  return { ...latest, matcher };
}

/** The manifest of `build` with `rules` as its matcher, holding plain copies only (safe to serialise). */
export function buildManifest(build: LatestBuild, rules: readonly RouteRule[]): BuildManifest {
  return {
    id: build.id,
    timestamp: build.timestamp,
    matcher: rules.map(({ path, redirect }) => ({
      path,
      redirect: redirect.status ? { to: redirect.to, status: redirect.status } : { to: redirect.to },
    })),
  };
}
