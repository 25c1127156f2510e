import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILD_ID_PATTERN,
  buildManifest,
  kvBuildManifestKey,
  parseBuildManifest,
  parseLatestBuild,
} from '../../shared/build-manifest.ts';
import { isSafeTarget, routeRules } from '../../shared/route-rules.ts';

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

  it('keeps only the fields a manifest has, and refuses a matcher that is not a list', () => {
    const rule = { path: '/x', extra: 1, redirect: { to: '/y', status: 301, more: true } };
    expect(parseBuildManifest({ id: 'b', timestamp: 1, matcher: [rule], other: 'no' })).toEqual({
      id: 'b',
      timestamp: 1,
      matcher: [{ path: '/x', redirect: { to: '/y', status: 301 } }],
    });
    expect(parseBuildManifest({ id: 'b', timestamp: 1, matcher: {} })).toBeUndefined();
    expect(parseBuildManifest({ id: 'b', timestamp: 1.5, matcher: [] })).toBeUndefined();
    expect(parseBuildManifest({ id: 'b', timestamp: 1, matcher: [{ path: '/x' }] })).toBeUndefined();
  });

  it('reads back every manifest it writes, and never returns a target a browser should not go to', () => {
    const rule = fc.record({
      path: fc.oneof(
        fc.string(),
        fc.string().map((rest) => `/${rest}`),
      ),
      redirect: fc.record(
        {
          to: fc.oneof(fc.string(), fc.webUrl(), fc.constantFrom('/landing', 'javascript:x', '//evil.example/')),
          status: fc.constantFrom(200, 301, 302, 307, 308),
        },
        { requiredKeys: ['to'] },
      ),
    });
    fc.assert(
      fc.property(
        fc.record({ id: fc.string(), timestamp: fc.integer({ min: -5 }), matcher: fc.array(rule, { maxLength: 5 }) }),
        (value) => {
          const parsed = parseBuildManifest(JSON.parse(JSON.stringify(value)));
          const valid =
            BUILD_ID_PATTERN.test(value.id) &&
            value.timestamp >= 0 &&
            value.matcher.every(
              ({ path, redirect }) =>
                path.startsWith('/') &&
                isSafeTarget(redirect.to) &&
                [undefined, 301, 302, 307, 308].includes(redirect.status),
            );
          expect(parsed === undefined).toBe(!valid);
          if (parsed) expect(buildManifest(parsed, parsed.matcher)).toEqual(parsed);
          for (const { redirect } of parsed?.matcher ?? []) expect(isSafeTarget(redirect.to)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
