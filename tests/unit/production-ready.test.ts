import { describe, expect, it } from 'vitest';
import type { LanderConfig } from '../../shared/config/schema.ts';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';
import { isPlaceholderOrigin, productionGaps } from '../../worker/config/production-ready.ts';
import { validateConfig } from '../../worker/config/validate.ts';

/** An operator's own document: every store id, package and origin theirs. */
function own(change: Record<string, unknown> = {}): LanderConfig {
  const result = validateConfig({
    revision: 'own-1',
    appData: [
      {
        plat: 1,
        logo_url: '/logo.png',
        name: 'Tern',
        version: '1.0',
        size: '9 MB',
        updated_at: '2026-11-01',
        download_url: '/apk/tern.apk',
        package: 'com.tern.app',
      },
      {
        plat: 2,
        logo_url: '/logo.png',
        name: 'Tern',
        version: '1.0',
        size: '9 MB',
        updated_at: '2026-11-01',
        app_store_id: '1234567890',
      },
    ],
    domains: ['https://dl.tern.app'],
    commonConfig: { tagline: 'T', description: 'D' },
    ...change,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

const paths = (config: LanderConfig, origin = 'https://dl.lander.example') =>
  productionGaps(config, origin).map((gap) => gap.path);

describe('what production needs of the operator', () => {
  it('finds nothing missing in a document with the operator’s own ids, package and download origin', () => {
    expect(productionGaps(own(), 'https://dl.lander.example')).toEqual([]);
  });

  it('names each store id and package the demo document holds, and its missing download origin', () => {
    expect(paths(DEMO_CONFIG)).toEqual(
      expect.arrayContaining([
        '$.appData[0].package',
        '$.appData[0].store_url',
        '$.appData[0].appgallery_id',
        '$.appData[1].app_store_id',
        '$.domains',
        '$.links.apple_app_ids',
      ]),
    );
  });

  it('names a missing App Store id and a missing package', () => {
    const base = own();
    const [android, ios] = base.appData as [LanderConfig['appData'][0], LanderConfig['appData'][0]];
    const { package: _p, ...noPackage } = android;
    const { app_store_id: _a, ...noId } = ios;
    const gaps = productionGaps({ ...base, appData: [noPackage, noId] }, 'https://dl.tern.app');
    expect(gaps).toEqual([
      { path: '$.appData[0].package', message: expect.stringContaining('missing') },
      { path: '$.appData[1].app_store_id', message: expect.stringContaining('missing') },
    ]);
  });

  it('needs a download origin for APKs: a domain of the operator’s, or a DOWNLOAD_ORIGIN that is not a placeholder', () => {
    expect(paths(own({ domains: [] }))).toEqual(['$.domains']);
    expect(paths(own({ domains: [] }), 'https://dl.tern.app')).toEqual([]);
    expect(paths(own({ domains: ['https://dl.shop.example'] }))).toEqual(['$.domains[0]', '$.domains']);
  });

  it('tells placeholder hosts from real ones', () => {
    for (const origin of [
      'https://dl.lander.example',
      'https://x.test',
      'https://example.com',
      'http://dl.tern.app',
      undefined,
    ]) {
      expect(isPlaceholderOrigin(origin), String(origin)).toBe(true);
    }
    expect(isPlaceholderOrigin('https://dl.tern.app')).toBe(false);
  });
});
