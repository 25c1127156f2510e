/**
 * Kept pages answered before routing (worker/render/kept-response.ts): with a configuration the
 * isolate has read and may keep (production caches it for `CONFIG_CACHE_SECONDS`), a kept page is
 * answered without the app, with the app's own bytes and headers, and its view is counted; anything
 * else is left to the app. Each test uses its own channel, so no two share a page or a funnel row.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_DECODE_KEY } from '../../worker/campaign/decode-key.ts';
import { encryptToken } from '../../worker/campaign/token.ts';
import app from '../../worker/index.ts';
import { keptResponse } from '../../worker/render/kept-response.ts';
import { UA } from '../fixtures/agents.ts';
import { DEMO } from '../fixtures/config.ts';
import { dailyCounts, freshChannel } from './funnel-fixtures.ts';
import { clearConfig, ORIGIN, storeConfig } from './helpers.ts';

// The configuration kept for 30 s, as in production: only then may a page be answered before routing.
const cached = { ...env, CONFIG_CACHE_SECONDS: '30' } as Env;

const request = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(`${ORIGIN}${path}`, { method, headers: { 'user-agent': UA.iPhoneSafari, ...headers } });

/** The app's answer to `path`, with its after-response work (keeping, counting) done. */
async function viaApp(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request(path, headers), cached, ctx);
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(body, res);
}

/** `keptResponse`'s answer to `path`, with its counting done. */
async function beforeRouting(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const ctx = createExecutionContext();
  const res = keptResponse(request(path, headers, method), cached, ctx);
  const body = await res?.text();
  await waitOnExecutionContext(ctx);
  return res && { res, body };
}

const signed = (channel: string) => encryptToken(JSON.stringify({ channel, inviter: 'Ann Lee' }), DEV_DECODE_KEY);

beforeEach(async () => {
  await storeConfig(DEMO);
});
afterEach(async () => {
  await clearConfig();
});

describe('a kept page answered before routing', () => {
  it('is the app’s own answer: the same bytes and the same headers', async () => {
    const path = `/landing?channel=${freshChannel()}`;
    expect((await viaApp(path)).headers.get('server-timing')).toMatch(/^kept;desc=miss/);
    const kept = await viaApp(path);
    expect(kept.headers.get('server-timing')).toMatch(/^kept;desc=hit/);
    const early = await beforeRouting(path);
    expect(early?.body).toBe(await kept.text());
    expect([...(early?.res.headers ?? [])]).toEqual([...kept.headers]);
  });

  it('counts the view it answers, under its campaign', async () => {
    const channel = freshChannel();
    const path = `/landing?d=${signed(channel)}`;
    await viaApp(path);
    const early = await beforeRouting(path, { 'accept-language': 'fr-FR' });
    expect(early).toBeDefined();
    await expect.poll(() => dailyCounts(channel), { timeout: 5_000 }).toMatchObject({ 'view:landing': 2 });
  });

  it('does not count a prefetch', async () => {
    const channel = freshChannel();
    const path = `/?d=${signed(channel)}`;
    await viaApp(path);
    expect(await beforeRouting(path, { 'sec-purpose': 'prefetch' })).toBeDefined();
    await viaApp(`/landing?d=${signed(channel)}`);
    // The landing view arrives after the prefetch would have: the download page counted once.
    await expect.poll(() => dailyCounts(channel), { timeout: 5_000 }).toMatchObject({ 'view:landing': 1 });
    expect((await dailyCounts(channel))['view:download']).toBe(1);
  });

  it('leaves a page nothing kept yet to the app', async () => {
    expect(await beforeRouting(`/?channel=${freshChannel()}`)).toBeUndefined();
  });

  it('leaves other methods, short links, the diagnostics page and the APIs to the app', async () => {
    const path = `/?channel=${freshChannel()}`;
    await viaApp(path);
    expect(await beforeRouting(path)).toBeDefined();
    expect(await beforeRouting(path, {}, 'HEAD')).toBeUndefined();
    for (const other of ['/s/spring', '/test', '/api/health', '/admin']) {
      await viaApp(other);
      expect(await beforeRouting(other), other).toBeUndefined();
    }
  });
});
