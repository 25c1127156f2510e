/**
 * Production never shows the bundled demo (docs/config.md#production): without a configuration of
 * the operator's in KV, pages and `/.well-known` answer a plain 503 page in both languages that
 * carries nothing of the demo's, while development keeps serving the demo.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, ORIGIN, storeConfig } from '../helpers.ts';

const PRODUCTION = { LANDER_ENV: 'production' } as const;

function visit(path: string, bindings: Partial<Env> = PRODUCTION) {
  return fetchWorker(`${ORIGIN}${path}`, { headers: { 'user-agent': UA.iPhoneSafari } }, bindings);
}

/** A KV whose every read fails, as the worker's binding. */
const failingKv = {
  get: async () => {
    throw new Error('KV unavailable (injected)');
  },
} as unknown as KVNamespace;

afterEach(clearConfig);

describe('a production worker without a configuration', () => {
  it.each(['/', '/landing', '/.well-known/apple-app-site-association'])(
    'answers %s with the 503 "not configured yet" page, in both languages and with no demo value',
    async (path) => {
      const res = await visit(path);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('This page is not configured yet.');
      expect(html).toContain('此页面尚未配置。');
      for (const demoValue of ['apps.apple.com', DEMO.appData[1]?.app_store_id, 'Pebble', 'pebble', '<a ', '<script']) {
        expect(html).not.toContain(demoValue);
      }
    },
  );

  it('answers 503 for a document that fails the schema, too', async () => {
    await storeConfig({ ...DEMO, revison: 'typo' });
    const res = await visit('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('not configured yet');
  });

  it('says "try again shortly", with Retry-After, when KV itself fails', async () => {
    const res = await visit('/', { ...PRODUCTION, KV: failingKv });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.text()).toContain('Please try again shortly.');
  });

  it('serves the page once the operator configuration is in KV', async () => {
    await storeConfig({ ...DEMO, revision: 'operator-1' });
    const res = await visit('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-config')).toBeNull();
  });

  it('leaves development serving the demo, so a fresh checkout shows a complete page', async () => {
    const res = await visit('/', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('x-config')).toBe('fallback');
  });
});
