/**
 * Build identity (docs/builds.md): which client build is running, when it was built, and its route
 * rules in a form that travels as JSON (`matcher`). The worker serves these from KV, or from the
 * build it carries; the browser reads them to apply route rules before navigating (docs/routes.md) and to
 * notice a newer deploy (docs/builds.md). Values read from KV or the network are validated before use.
 */
import * as v from 'valibot';
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

const latestSchema = v.object({
  id: v.pipe(v.string(), v.regex(BUILD_ID_PATTERN)),
  timestamp: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

const ruleSchema = v.object({
  path: v.pipe(v.string(), v.startsWith('/')),
  redirect: v.object({
    // A manifest's target ends up in `location.href`: never `javascript:` or a protocol-relative URL.
    to: v.pipe(v.string(), v.check(isSafeTarget)),
    status: v.optional(v.picklist([301, 302, 307, 308])),
  }),
});

const manifestSchema = v.object({ ...latestSchema.entries, matcher: v.array(ruleSchema) });

/** The latest-build record in `value`, or undefined when it is not one. */
export function parseLatestBuild(value: unknown): LatestBuild | undefined {
  const result = v.safeParse(latestSchema, value);
  return result.success ? { id: result.output.id, timestamp: result.output.timestamp } : undefined;
}

/** The build manifest in `value`, or undefined when it is not one. */
export function parseBuildManifest(value: unknown): BuildManifest | undefined {
  const result = v.safeParse(manifestSchema, value);
  return result.success ? result.output : undefined;
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
