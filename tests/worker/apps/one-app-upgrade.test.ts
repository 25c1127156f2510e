/**
 * An existing one-app deployment upgrades with no step (docs/routes.md#apps): with today's stored
 * data — the configuration at `config`, the APK parents at `apk:parents`, a short link made through
 * the API — and no registry, every URL answers as it did, on any host, as the app `default`.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_SLOT } from '../../../shared/attribution.ts';
import { PARENTS_KEY } from '../../../worker/apk/parents.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO, demoWith } from '../../fixtures/config.ts';
import { fetchWorker, handoffOf } from '../helpers.ts';

const FACTS = { file: 'pebble-notes-2.4.0.apk', size: 123_456, sha256: 'ab'.repeat(32), version: '2.4.0' };
const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };

afterEach(async () => {
  for (const key of ['config', PARENTS_KEY]) await env.KV.delete(key);
});

describe('a deployment from before apps', () => {
  it.each(['https://lander.test', 'https://get.example.com'])('keeps every URL of %s working', async (origin) => {
    await env.KV.put('config', JSON.stringify(demoWith({ commonConfig: { ...DEMO.commonConfig, tagline: 'Kept' } })));
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': FACTS }));
    const made = await fetchWorker(`${origin}/api/links`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ channel: 'kept', inviter: 'ada' }),
    });
    expect(made.status).toBe(201);
    const link = (await made.json()) as { slug: string; shortUrl: string };
    expect(link.shortUrl).toBe(`${origin}/s/${link.slug}`);

    const visit = (path: string, userAgent = UA.androidChrome) =>
      fetchWorker(`${origin}${path}`, { headers: { 'user-agent': userAgent }, redirect: 'manual' });
    for (const path of ['/', '/landing', `/s/${link.slug}`]) {
      const res = await visit(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-config'), path).toBeNull();
      const html = await res.text();
      expect(html, path).toContain('Kept');
      const { handoff } = handoffOf(html);
      expect(handoff.base).toBe('');
      expect(handoff.attribution.links['/android/pebble-notes-2.4.0.apk']).toBe(
        `${origin}/dl/${CARRIER_SLOT}/pebble-notes-2.4.0.apk`,
      );
    }
    expect((await visit(`/s/${link.slug}.svg`)).status).toBe(200);
    expect((await visit('/download')).headers.get('location')).toBe('/');
    expect((await visit('/.well-known/apple-app-site-association')).status).toBe(200);
    expect((await visit('/api/health')).status).toBe(200);
    const listed = await fetchWorker(`${origin}/api/links`, { headers: ADMIN });
    expect(((await listed.json()) as { links: { slug: string }[] }).links.map((l) => l.slug)).toContain(link.slug);
    const stats = await fetchWorker(`${origin}/api/stats?since=7d`, { headers: ADMIN });
    expect(stats.status).toBe(200);
  });
});
