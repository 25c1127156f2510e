import { afterEach, describe, expect, it } from 'vitest';
import { DEMO as demo } from '../../fixtures/config.ts';
import { clearConfig, get, storeConfig } from '../helpers.ts';

const AASA = '/.well-known/apple-app-site-association';
const ASSET_LINKS = '/.well-known/assetlinks.json';

async function seedLinks(links: Record<string, unknown> | undefined): Promise<void> {
  const { links: _, ...rest } = demo;
  await storeConfig(links ? { ...rest, links } : rest);
}

afterEach(async () => {
  await clearConfig();
});

describe('/.well-known/apple-app-site-association', () => {
  it('is the configured app ids and paths as JSON, 200, no redirect', async () => {
    await seedLinks({ apple_app_ids: ['ABCDE12345.com.example.app'], paths: ['/open/*', '/invite/*'] });
    const res = await get(AASA);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toEqual({
      applinks: {
        details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/open/*' }, { '/': '/invite/*' }] }],
      },
    });
  });

  it('is 404 (JSON) when no Apple app id is configured', async () => {
    await seedLinks(undefined);
    const res = await get(AASA);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  });

  it('follows the demo configuration when KV holds none', async () => {
    const res = await get(AASA);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('A1B2C3D4E5.com.pebble.notes');
  });

  it('answers HEAD like GET, without a body', async () => {
    await seedLinks({ apple_app_ids: ['ABCDE12345.com.example.app'] });
    const res = await get(AASA, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(await res.text()).toBe('');
  });
});

describe('/.well-known/assetlinks.json', () => {
  const SHA = demo.links.android_sha256;

  it('is the package and certificate fingerprints as a Digital Asset Links statement', async () => {
    await seedLinks({ android_package: 'com.example.app', android_sha256: SHA });
    const res = await get(ASSET_LINKS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: SHA },
      },
    ]);
  });

  it('is 404 without a package or without fingerprints', async () => {
    for (const links of [undefined, { android_sha256: SHA }, { android_package: 'com.example.app' }]) {
      await seedLinks(links);
      const res = await get(ASSET_LINKS);
      expect(res.status, JSON.stringify(links)).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    }
  });

  it('is independent of the Apple file: one configured, the other not', async () => {
    await seedLinks({ apple_app_ids: ['ABCDE12345.com.example.app'] });
    expect((await get(AASA)).status).toBe(200);
    expect((await get(ASSET_LINKS)).status).toBe(404);
  });
});

describe('/.well-known/applinking.json', () => {
  const APP_LINKING = '/.well-known/applinking.json';

  it('lists the configured HarmonyOS app identifiers, 200 JSON', async () => {
    await seedLinks({ harmony_app_ids: ['5765880207854169719', '6917562451234567890'] });
    const res = await get(APP_LINKING);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(await res.json()).toEqual({
      applinking: { apps: [{ appIdentifier: '5765880207854169719' }, { appIdentifier: '6917562451234567890' }] },
    });
  });

  it('is 404 (JSON) when no HarmonyOS app id is configured', async () => {
    await seedLinks({ apple_app_ids: ['ABCDE12345.com.example.app'] });
    const res = await get(APP_LINKING);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'App Linking is not configured' });
  });

  it('follows the demo configuration when KV holds none', async () => {
    expect(await (await get(APP_LINKING)).json()).toEqual({
      applinking: { apps: [{ appIdentifier: '5765880207854169719' }] },
    });
  });
});
