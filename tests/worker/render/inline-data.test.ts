/**
 * Inline data that cannot be broken out of (docs/security.md): every inline data block escapes `<`, `>`, `&`,
 * U+2028 and U+2029, so nothing a visitor sends (query values, a campaign token, the path, the
 * Referer) can close the element or break the script, and the browser reads the values back intact.
 * Every other script is the page's own file, or carries this response's nonce.
 */
import { describe, expect, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

const NASTY = '</script><script>alert(1)</script><!--&amp;\u2028\u2029-->';

interface InlineScript {
  attributes: string;
  content: string;
}

/** Every `<script>` without `src`, with its attributes and text. */
function inlineScripts(html: string): InlineScript[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)].map(
    ([, attributes = '', content = '']) => ({
      attributes,
      content,
    }),
  );
}

function dataBlocks(html: string): InlineScript[] {
  return inlineScripts(html).filter((s) => /type="application\/json"/.test(s.attributes));
}

function expectEscaped(html: string): void {
  const blocks = dataBlocks(html);
  expect(blocks.length).toBeGreaterThan(0);
  for (const { content } of blocks) {
    expect(content).not.toMatch(/[<>&\u2028\u2029]/);
    expect(() => JSON.parse(content)).not.toThrow();
  }
}

describe('inline data blocks', () => {
  it('escape a plain query value and give it back intact', async () => {
    const res = await get(`/landing?inviter=${encodeURIComponent(NASTY)}&channel=a%26b`);
    const html = await res.text();
    expectEscaped(html);
    const store = JSON.parse(dataBlocks(html)[0]?.content ?? 'null').handoff;
    expect(store.campaign.plain).toEqual({ inviter: NASTY, channel: 'a&b' });
  });

  it('escape values from a campaign token', async () => {
    const token = encryptToken(JSON.stringify({ inviter: NASTY }), DEV_DECODE_KEY);
    const html = await (await get(`/landing?d=${token}`)).text();
    expectEscaped(html);
    expect(JSON.parse(dataBlocks(html)[0]?.content ?? 'null').handoff.campaign.signed.inviter).toBe(NASTY);
  });

  it('escape the Referer and the User-Agent carried in the device info of /test', async () => {
    const referer = 'https://x.test/?q=</script><script>alert(1)</script>&a=<b>';
    const userAgent = `${UA.androidChrome} </script><img src=x onerror=alert(1)>`;
    const html = await (await get('/test', { userAgent, headers: { referer } })).text();
    expectEscaped(html);
    const device = JSON.parse(dataBlocks(html)[0]?.content ?? 'null').handoff.deviceInfo;
    expect(device.userAgent).toBe(userAgent);
    expect(device.referrer).toBe(referer);
  });

  it('escape the path in the not-found error of the hydration data', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await get(
      `/${encodeURIComponent('</script><script>alert(1)</script>')}?channel=${encodeURIComponent(NASTY)}`,
    );
    expect(res.status).toBe(404);
    const html = await res.text();
    expectEscaped(html);
    expect(html).not.toContain('<script>alert(1)');
    vi.restoreAllMocks();
  });

  it('are the only inline scripts of a page that can be kept: it runs only its own files, with no nonce', async () => {
    // A new channel: the page is rendered, and answered as it is kept (page-cache.test.ts).
    const res = await get(`/landing?inviter=${encodeURIComponent(NASTY)}&channel=${crypto.randomUUID()}`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
    const html = await res.text();
    expect(inlineScripts(html).length).toBeGreaterThan(0);
    for (const { attributes } of inlineScripts(html)) expect(attributes).toContain('type="application/json"');
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      if (/type="application\/json"/.test(tag)) continue;
      expect(tag).toMatch(/ src="\/assets\/[\w.-]+\.js"/);
    }
  });

  it('are the only inline scripts without the nonce on a page never kept: every executable one carries it', async () => {
    const res = await get(`/no-such-page?inviter=${encodeURIComponent(NASTY)}`);
    expect(res.status).toBe(404);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    const html = await res.text();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      if (/type="application\/json"/.test(tag)) continue;
      expect(tag).toContain(`nonce="${nonce}"`);
    }
  });
});
