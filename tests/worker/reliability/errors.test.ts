import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { fetchWorker, get, handoffOf, ORIGIN } from '../helpers.ts';

describe('errors', () => {
  it('answers an unmatched path with 404 and the path and the whole query in the message', async () => {
    const res = await get('/no/such/page?channel=mail&utm_source=ad');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('Page not found: /no/such/page?channel=mail&amp;utm_source=ad<');
    expect(html).toContain('Page Not Found');
    expect(html).toContain('>404<');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  it('titles the 404 page in Chinese for a zh-CN visitor, like the rest of the page', async () => {
    const res = await get('/nope', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<html lang="zh-CN"');
    expect(html).toContain('<h1>页面未找到</h1>');
    expect(html).toContain('返回下载页');
    expect(html).not.toContain('Page Not Found');
  });

  it('escapes what the visitor put in the path', async () => {
    const html = await (await get('/x%3Cimg%20src=x%3E?channel=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E')).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('Page not found: /x%3Cimg%20src=x%3E?channel=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E');
  });

  it('serves /test where DIAGNOSTICS is on', async () => {
    const res = await get('/test');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('class="screen diagnostics"');
  });

  it('answers /test with 404 where DIAGNOSTICS is off', async () => {
    const res = await fetchWorker(
      `${ORIGIN}/test`,
      { headers: { 'user-agent': UA.iPhoneSafari } },
      { ...env, DIAGNOSTICS: 'off' },
    );
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page not found: /test');
  });

  it('hands the route error to the browser so the 404 page hydrates', async () => {
    const html = await (await get('/gone')).text();
    const errors = handoffOf(html).hydration.errors;
    expect(errors.root).toMatchObject({ kind: 'response', status: 404, data: { message: 'Page not found: /gone' } });
  });
});

describe('bots', () => {
  it('gives a bot status 200 and the metadata-only page where a person gets 404', async () => {
    const res = await get('/no/such/page', { userAgent: UA.googlebot });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/">`);
    expect(html).toContain('<meta property="og:title"');
    expect(html).toContain('<meta name="twitter:card"');
    expect(html).not.toContain('<script');
  });

  it('gives a link previewer the metadata page for a disabled /test', async () => {
    const res = await fetchWorker(
      `${ORIGIN}/test`,
      { headers: { 'user-agent': UA.whatsapp } },
      { ...env, DIAGNOSTICS: 'off' },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('noindex');
  });

  it('gives a bot the complete page on a valid path', async () => {
    const res = await get('/', { userAgent: UA.googlebot });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('class="screen download"');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('does not call a person a bot because of words past the 512-character cap', async () => {
    const agent = `${UA.iPhoneSafari} ${'x'.repeat(600)} Googlebot/2.1`;
    const res = await get('/missing', { userAgent: agent });
    expect(res.status).toBe(404);
  });
});
