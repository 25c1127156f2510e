/**
 * What the pages carry for attribution (docs/attribution.md): the carrier page `/i/<carrier>`, the
 * link templates a tap fills with its carrier, and the App Store campaign query.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CARRIER_SLOT } from '../../../shared/attribution.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO as demo } from '../../fixtures/config.ts';
import { clearConfig, get, handoffOf, storeConfig } from '../helpers.ts';

const CLICK = 'AAECAwQFBgcICQoLDA0ODw';
const token = encryptToken(JSON.stringify({ channel: 'spring-sale', inviter: 'Ann Lee' }), DEV_DECODE_KEY);
const PLAY = 'https://play.google.com/store/apps/details?id=com.pebble.notes';

interface Store {
  campaign: { signed: Record<string, string>; token?: string };
  attribution: { copy: boolean; links: Record<string, string> };
  openApp: { method: string; href: string } | null;
  download: { primary: { href: string } | null };
}

async function store(
  path: string,
  userAgent = UA.iPhoneSafari,
): Promise<{ html: string; store: Store; status: number }> {
  const res = await get(path, { userAgent });
  const html = await res.text();
  return { html, status: res.status, store: handoffOf(html).handoff };
}

afterEach(async () => {
  await clearConfig();
  vi.restoreAllMocks();
});

describe('/i/<carrier>: the page a pasted carrier link opens', () => {
  it("is the landing screen with the carrier's campaign", async () => {
    const page = await store(`/i/${CLICK}.${token}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<strong>Ann Lee</strong>');
    expect(page.store.campaign).toMatchObject({ signed: { inviter: 'Ann Lee' }, token });
    expect(page.store.attribution.copy).toBe(true);
  });

  it('without a campaign (an organic carrier) is the landing screen with none', async () => {
    const page = await store(`/i/${CLICK}`);
    expect(page.status).toBe(200);
    expect(page.store.campaign.signed).toEqual({});
  });

  it('with a tampered token shows no campaign', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await store(`/i/${CLICK}.${token.slice(0, -2)}AA`);
    expect(page.status).toBe(200);
    expect(page.store.campaign.signed).toEqual({});
    expect(page.html).not.toContain('Ann Lee');
  });
});

describe('link templates', () => {
  it('give an Android Play button the carrier as its install referrer', async () => {
    const appData = demo.appData.map(({ download_url: _, ...item }) => item);
    await storeConfig({ ...demo, appData });
    const page = await store(`/?d=${token}`, UA.androidFirefox);
    expect(page.store.download.primary?.href).toBe(PLAY);
    expect(page.store.attribution.links[PLAY]).toBe(`${PLAY}&referrer=${CARRIER_SLOT}`);
  });

  it('open HarmonyOS NEXT apps by App Linking on the link domain, the carrier in the path', async () => {
    const page = await store('/landing?channel=x', UA.harmonyNext);
    expect(page.store.openApp).toMatchObject({ method: 'universal-link' });
    const href = page.store.openApp?.href ?? '';
    expect(new URL(href).host).toBe('open.pebble-notes.example');
    expect(page.store.attribution.links[href]).toBe(`https://open.pebble-notes.example/i/${CARRIER_SLOT}`);
  });

  it('keep HarmonyOS 4 on the Android path', async () => {
    const page = await store('/landing?channel=x', UA.harmony4);
    expect(page.store.openApp?.method).not.toBe('universal-link');
  });

  it("leave HarmonyOS NEXT on today's path without App Linking ids", async () => {
    await storeConfig({ ...demo, links: { ...demo.links, harmony_app_ids: [] } });
    const page = await store('/landing?channel=x', UA.harmonyNext);
    expect(page.store.openApp?.href ?? '').not.toContain('open.pebble-notes.example');
  });

  it('copy on the download page only when the configuration says so', async () => {
    expect((await store('/')).store.attribution.copy).toBe(true);
    await storeConfig({ ...demo, attribution: { copy_on_download: false } });
    expect((await store('/')).store.attribution.copy).toBe(false);
  });
});

describe('App Store links', () => {
  it('carry the provider token and the signed channel (ct)', async () => {
    const page = await store(`/?d=${token}`);
    expect(page.store.download.primary?.href).toBe('https://apps.apple.com/app/id6740858208?pt=118342&ct=spring-sale');
    expect(page.html).toContain('<meta name="apple-itunes-app" content="app-id=6740858208"');
  });

  it('carry nothing without a provider token', async () => {
    await storeConfig({ ...demo, attribution: {} });
    expect((await store('/?channel=x')).store.download.primary?.href).toBe('https://apps.apple.com/app/id6740858208');
  });
});
