/**
 * The page with a parent APK uploaded (docs/apk-stamping.md): the APK links' templates point at the
 * stamped path on the page's host, keyed by the APK's path; `/test` says what the parent is.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_SLOT } from '../../../shared/attribution.ts';
import { PARENTS_KEY } from '../../../worker/apk/parents.ts';
import { UA } from '../../fixtures/agents.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const APK_PATH = '/android/pebble-notes-2.4.0.apk';
const FACTS = { file: 'pebble-notes-2.4.0.apk', size: 123_456, sha256: 'ab'.repeat(32), version: '2.4.0' };
const STAMPED = `${ORIGIN}/dl/${CARRIER_SLOT}/pebble-notes-2.4.0.apk`;

const handoff = (html: string) => handoffOf(html)?.handoff;

const page = async (path: string, userAgent = UA.androidChrome) =>
  handoff(await (await get(path, { userAgent })).text());

afterEach(async () => {
  await env.KV.delete(PARENTS_KEY);
});

describe('the page with a parent uploaded for the Android app', () => {
  it('gives the Android download button the stamped template, keyed by the APK path', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': FACTS }));
    const store = await page('/');
    expect(store.download.primary.apkPath).toBe(APK_PATH);
    expect(store.attribution.links[APK_PATH]).toBe(STAMPED);
  });

  it('puts the stamped template inside Chrome’s intent fallback', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': FACTS }));
    const store = await page('/landing');
    expect(store.openApp.method).toBe('intent');
    expect(store.attribution.links[store.openApp.href]).toContain(
      `S.browser_fallback_url=${encodeURIComponent(STAMPED)}`,
    );
  });

  it('hands the parent’s facts to the page', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': FACTS }));
    expect((await page('/')).apkParent).toEqual(FACTS);
  });

  it('shows the parent on /test', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': FACTS }));
    const html = await (await get('/test', { userAgent: UA.androidChrome })).text();
    expect(html).toContain(`pebble-notes-2.4.0.apk · 2.4.0 · 123456 bytes · sha256 ${FACTS.sha256}`);
  });
});

describe('the page without a parent for the Android app', () => {
  it('keeps the plain APK link: no stamped template', async () => {
    const store = await page('/');
    expect(store.attribution.links[APK_PATH]).toBeUndefined();
    expect(store.apkParent).toBeNull();
  });

  it('ignores a parent uploaded for another package', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.other.app': FACTS }));
    expect((await page('/')).attribution.links[APK_PATH]).toBeUndefined();
  });

  it('ignores a record that is not valid', async () => {
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': { ...FACTS, sha256: 'nope' } }));
    const response = await get('/', { userAgent: UA.androidChrome });
    expect(response.status).toBe(200);
    expect(handoff(await response.text()).attribution.links[APK_PATH]).toBeUndefined();
  });
});
