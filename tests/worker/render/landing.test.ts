import { env } from 'cloudflare:workers';
import { describe, expect, inject, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, get, handoffBlock, handoffOf, ORIGIN, storeConfig } from '../helpers.ts';

const HOSTILE_INVITER = '</script><script>alert(1)</script>\u2028<img src=x onerror=alert(2)>';

function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

const handoff = (
  html: string,
): { handoff: { campaign: { signed: Record<string, string>; plain: Record<string, string> } } } => handoffOf(html);

/** The page's text a visitor sees: the markup without the data block, scripts and tags. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<head[\s\S]*?<\/head>/g, '')
    .replace(/<[^>]+>/g, ' ');
}

describe('/landing with a campaign link', () => {
  it("shows the operator's signed display text, never a channel, slug or plain title", async () => {
    const d = encryptToken(
      JSON.stringify({ channel: 'cn-wechat-q3', title: 'Spring invite: 3 months free', inviter: 'Ann' }),
      DEV_DECODE_KEY,
    );
    const html = await (await get(`/landing?d=${d}&channel=internal-x&title=Forged`)).text();
    const text = visibleText(html);
    expect(text).toContain('Spring invite: 3 months free');
    expect(text).toContain('Ann');
    for (const hidden of ['cn-wechat-q3', 'internal-x', 'Forged']) expect(text).not.toContain(hidden);
    // No display text given: only the inviter shows, and no campaign row.
    const plain = await (await get('/landing?channel=spring-sale&inviter=Bo')).text();
    expect(visibleText(plain)).not.toContain('spring-sale');
    expect(plain).not.toContain('campaign-title');
  });

  it('words the button for a visitor who may not have the app, in both languages', async () => {
    const en = await (await get('/landing?channel=a', { userAgent: UA.iPhoneSafari })).text();
    expect(en).toMatch(
      /<a class="button button-landing" href="https:\/\/open\.pebble-notes\.example\/open\/\?channel=a"[^>]*>Get Pebble Notes<\/a>/,
    );
    expect(handoff(en).handoff).toMatchObject({
      landing: { button: { open: { installedLabel: 'Open in Pebble Notes' } } },
    });
    const zh = await (
      await get('/landing', { userAgent: UA.androidChrome, headers: { 'accept-language': 'zh-CN' } })
    ).text();
    expect(zh).toMatch(/data-open="intent"[^>]*>获取 Pebble 笔记<\/a>/);
    // Android WeChat blocks the APK and the scheme: the button says the step that works.
    const weChat = await (
      await get('/landing', { userAgent: UA.weChatAndroid, headers: { 'accept-language': 'zh-CN' } })
    ).text();
    expect(weChat).toMatch(/data-kind="apk"[^>]*>在浏览器中打开以下载<\/a>/);
    const home = await (await get('/', { userAgent: UA.androidFirefox })).text();
    expect(home).toMatch(/class="button button-open"[^>]*>Already have it\? Open it<\/a>/);
  });

  it('renders the inviter of a link minted by npm run link in the server HTML, never its channel', async () => {
    const res = await get(pathOf(inject('campaignLink')));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<strong>Ann Lee</strong>');
    expect(visibleText(html)).not.toContain('spring-sale');
    // Nowhere in the page's source but the App Store's own campaign parameter (`ct`, docs/attribution.md):
    // the hand-off carries only the fields the page shows.
    expect(html.replaceAll('ct=spring-sale', '')).not.toContain('spring-sale');
    expect(handoff(html).handoff.campaign.signed).toEqual({ inviter: 'Ann Lee' });
    // The link's utm_source (a mailer's) is no campaign data: no page reads it.
    expect(handoff(html).handoff.campaign.plain).toEqual({});
  });

  it('keeps a hostile payload inert in the markup and in the data block', async () => {
    const html = await (await get(pathOf(inject('hostileCampaignLink')))).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const block = handoffBlock(html);
    expect(block).not.toMatch(/[<>\u2028\u2029]/);
    expect(handoff(html).handoff.campaign.signed.inviter).toBe(HOSTILE_INVITER);
    expect(html).not.toContain('x\u2029y');
  });

  it('does not read tokens in production when its key is the development key, and still answers 200', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const d = encryptToken(JSON.stringify({ inviter: 'Mallory' }), DEV_DECODE_KEY);
    // Production serves only a configuration in KV, never the bundled demo (docs/config.md#production).
    await storeConfig(DEMO);
    const res = await fetchWorker(
      `${ORIGIN}/landing?d=${d}`,
      { headers: { 'user-agent': UA.iPhoneSafari } },
      { ...env, LANDER_ENV: 'production', DECODE_KEY: DEV_DECODE_KEY },
    );
    await clearConfig();
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('Mallory');
  });

  it('never sends the decode key to the browser', async () => {
    const res = await get(pathOf(inject('campaignLink')));
    const text = `${[...res.headers].join('\n')}\n${await res.text()}`;
    expect(text).not.toContain(DEV_DECODE_KEY);
  });

  it('shows the inviter a token names, never a plain inviter beside it', async () => {
    const d = encryptToken(JSON.stringify({ inviter: 'Ann' }), DEV_DECODE_KEY);
    const html = await (await get(`/landing?d=${d}&inviter=Mallory`)).text();
    expect(html).toContain('<strong>Ann</strong>');
    expect(html).not.toContain('<strong>Mallory</strong>');
    expect(handoff(html).handoff.campaign).toMatchObject({ signed: { inviter: 'Ann' }, plain: { inviter: 'Mallory' } });
  });

  it('shows a plain inviter where the token names none', async () => {
    const d = encryptToken(JSON.stringify({ channel: 'spring' }), DEV_DECODE_KEY);
    const html = await (await get(`/landing?d=${d}&inviter=Bo`)).text();
    expect(html).toContain('<strong>Bo</strong>');
  });

  it('answers 200 with no campaign data for a broken or oversized token', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const d of [
      '%',
      'A'.repeat(100_000),
      'not-a-token',
      `${inject('campaignLink').split('d=')[1]?.split('&')[0]}==`,
    ]) {
      const res = await get(`/landing?d=${d}`);
      expect(res.status).toBe(200);
      expect(handoff(await res.text()).handoff.campaign.signed).toEqual({});
    }
    expect(error).toHaveBeenCalledWith('Decryption failed', expect.anything());
    error.mockRestore();
  });
});
