import { describe, expect, it } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { get, handoffOf } from '../helpers.ts';

describe('the page shell', () => {
  it('renders / as a complete HTML document with status 200', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('renders /landing with its own screen', async () => {
    const html = await (await get('/landing')).text();
    expect(html).toContain('class="screen landing"');
  });

  it('carries the referrer meta, the icon and the loading bar', async () => {
    const html = await (await get('/')).text();
    expect(html).toContain('<meta name="referrer" content="no-referrer"/>');
    expect(html).toContain('<link rel="icon" href="/logo.png"');
    expect(html).toContain('class="loading-bar"');
  });

  it('loads the client entry as a module from its own origin and preloads the screen chunk', async () => {
    // A new channel: the page is rendered, and answered as it is kept, without a nonce (page-cache.test.ts).
    const res = await get(`/?channel=${crypto.randomUUID()}`);
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).not.toContain('nonce');
    expect(html).toMatch(/<script type="module" src="\/assets\/entry-[\w-]+\.js" id="_R_" async="">/);
    expect(html).toMatch(/<link rel="modulepreload" href="\/assets\/download-page-[\w-]+\.js"/);
  });

  it("writes the response's nonce on the entry of a page that is never kept", async () => {
    const res = await get(`/no-such-page-${crypto.randomUUID()}`);
    const html = await res.text();
    expect(res.status).toBe(404);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    const script = /<script type="module" src="\/assets\/entry-[\w-]+\.js" nonce="([^"]+)"/.exec(html);
    expect(script?.[1]).toBe(nonce);
  });

  it('hands the store to the browser in a JSON data block', async () => {
    const html = await (await get('/')).text();
    const handoff = handoffOf(html);
    expect(handoff.handoff.deviceInfo.operatingSystem).toBe('iOS');
    expect(handoff.hydration.errors).toBeNull();
  });

  it('answers HEAD for a page', async () => {
    const res = await get('/', { method: 'HEAD' });
    expect(res.status).toBe(200);
  });

  it('refuses other methods with 405', async () => {
    const res = await get('/', { method: 'POST' });
    expect(res.status).toBe(405);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await get('/api/nothing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No API at /api/nothing' });
  });

  it('gives a desktop visitor the PC class on the root element', async () => {
    const html = await (await get('/', { userAgent: UA.desktop })).text();
    expect(html).toContain('data-os="PC"');
  });
});
