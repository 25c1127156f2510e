import { describe, expect, it } from 'vitest';
import {
  BUILD_ID_PATTERN,
  buildManifest,
  kvBuildManifestKey,
  parseBuildManifest,
  parseLatestBuild,
} from '../../shared/build-manifest.ts';
import { routeRules } from '../../shared/route-rules.ts';

describe('build records', () => {
  it('keeps the latest build and each manifest under their own KV keys', () => {
    expect(kvBuildManifestKey('abc')).toBe('builds:meta:abc');
  });

  it('accepts a latest-build record and drops anything extra', () => {
    expect(parseLatestBuild({ id: 'Ab_9-x', timestamp: 5, secret: 'no' })).toEqual({ id: 'Ab_9-x', timestamp: 5 });
  });

  it('rejects ids that are not URL- and key-safe, and timestamps that are not times', () => {
    for (const id of ['', '../x', 'a b', 'a/b', '<x>', 'a'.repeat(65)]) {
      expect(parseLatestBuild({ id, timestamp: 1 }), id).toBeUndefined();
    }
    expect(parseLatestBuild({ id: 'a', timestamp: -1 })).toBeUndefined();
    expect(parseLatestBuild({ id: 'a', timestamp: '1' })).toBeUndefined();
    expect(parseLatestBuild(null)).toBeUndefined();
    expect(BUILD_ID_PATTERN.test('CwX89EFHYueRfimm')).toBe(true);
  });

  it('serialises the route rules as the matcher, and reads them back', () => {
    const manifest = buildManifest({ id: 'b1', timestamp: 2 }, routeRules);
    const travelled = JSON.parse(JSON.stringify(manifest));
    expect(parseBuildManifest(travelled)).toEqual({ id: 'b1', timestamp: 2, matcher: routeRules });
  });

  it('refuses a manifest whose rule would send the browser to a script URL', () => {
    for (const to of ['javascript:alert(1)', '//evil.example/', 'data:text/html,x']) {
      const manifest = { id: 'b1', timestamp: 2, matcher: [{ path: '/x', redirect: { to } }] };
      expect(parseBuildManifest(manifest), to).toBeUndefined();
    }
  });

  it('refuses a manifest with an unknown redirect status or a relative rule path', () => {
    expect(
      parseBuildManifest({ id: 'b', timestamp: 1, matcher: [{ path: '/x', redirect: { to: '/', status: 200 } }] }),
    ).toBeUndefined();
    expect(
      parseBuildManifest({ id: 'b', timestamp: 1, matcher: [{ path: 'x', redirect: { to: '/' } }] }),
    ).toBeUndefined();
  });
});
