import { afterEach, describe, expect, it } from 'vitest';
import { matchesAppLinkPath } from '../../worker/app-links/app-link-fallback.ts';
import { UA } from '../fixtures/agents.ts';
import { DEMO as demo } from '../fixtures/config.ts';
import { clearConfig, get, storeConfig } from './helpers.ts';

async function seedPaths(paths: string[]): Promise<void> {
  await storeConfig({ ...demo, links: { ...demo.links, paths } });
}

afterEach(async () => {
  await clearConfig();
});

describe('app links that reach the browser', () => {
  it('send /open/ with its query to /landing with the same query (the demo paths: /open/*)', async () => {
    const res = await get('/open/?channel=spring&inviter=Ann%20Lee');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/landing?channel=spring&inviter=Ann%20Lee');
    const bare = await get('/open/', { userAgent: UA.androidChrome });
    expect(bare.headers.get('location')).toBe('/landing');
  });

  it('follow the configured paths, read from KV on each request', async () => {
    await seedPaths(['/go/*', '/invite/?????']);
    expect((await get('/go/x?channel=a')).headers.get('location')).toBe('/landing?channel=a');
    expect((await get('/invite/ab12c')).headers.get('location')).toBe('/landing');
    expect((await get('/invite/ab12')).status).toBe(404);
    expect((await get('/open/')).status).toBe(404);
  });

  it('never take a page Lander has, even when a pattern covers every path', async () => {
    await seedPaths(['/*']);
    expect((await get('/')).status).toBe(200);
    expect((await get('/landing?channel=a')).status).toBe(200);
    expect((await get('/somewhere')).headers.get('location')).toBe('/landing');
  });

  it('leave other unknown paths a 404', async () => {
    expect((await get('/opener')).status).toBe(404);
    expect((await get('/open')).status).toBe(404);
  });

  it('always redirect on this site: the request gives its query, never the target', async () => {
    for (const path of ['/open//evil.com', '/open/%2F%2Fevil.com', '/open/\\evil.com', '/open/?next=//evil.com']) {
      // A path with an empty segment first goes to its one address (docs/routes.md), then on.
      let location = (await get(path)).headers.get('location') ?? '';
      expect(new URL(location, 'https://lander.test').host).toBe('lander.test');
      if (!location.startsWith('/landing')) location = (await get(location)).headers.get('location') ?? '';
      expect(location.startsWith('/landing')).toBe(true);
      expect(new URL(location, 'https://lander.test').host).toBe('lander.test');
    }
  });
});

describe('matchesAppLinkPath', () => {
  it('reads * as any characters and ? as one; other characters literally', () => {
    expect(matchesAppLinkPath('/open/*', '/open/')).toBe(true);
    expect(matchesAppLinkPath('/open/*', '/open/a/b')).toBe(true);
    expect(matchesAppLinkPath('/open/*', '/opens/')).toBe(false);
    expect(matchesAppLinkPath('/p/?', '/p/x')).toBe(true);
    expect(matchesAppLinkPath('/p/?', '/p/xy')).toBe(false);
    expect(matchesAppLinkPath('/a.b+(c)', '/a.b+(c)')).toBe(true);
    expect(matchesAppLinkPath('/a.b', '/aXb')).toBe(false);
    expect(matchesAppLinkPath('/*/x/*/y', '/a/x/b/x/c/y')).toBe(true);
    expect(matchesAppLinkPath('/*/x/*/y', '/a/x/b/x/c/z')).toBe(false);
    expect(matchesAppLinkPath('/**', '/')).toBe(true);
  });

  it('answers for a 16 KB path against a pattern of many stars (a backtracking regex would not finish)', () => {
    const path = `/${'a'.repeat(16_384)}`;
    expect(matchesAppLinkPath('/*a*a*a*a*a*a*a*a*b', path)).toBe(false);
    expect(matchesAppLinkPath('/*a*a*a*a*a*a*a*a', path)).toBe(true);
  });
});
