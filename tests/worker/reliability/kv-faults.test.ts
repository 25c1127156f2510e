/**
 * KV faults never reach the visitor (docs/config.md): Workers KV throwing, finding nothing, holding non-JSON or
 * hanging for 5 s never breaks an answer. The page (its operator config) and the build calls answer
 * 200 from their fallbacks (the bundled demo config, the carried build) within 600 ms. Each fault is
 * a fake namespace passed as the worker's `KV` binding; the development vars read the config on
 * every request (`CONFIG_CACHE_SECONDS` 0), so no answer comes from an earlier test's cache.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeRules } from '../../../shared/route-rules.ts';
import { DEMO_CONFIG } from '../../../worker/config/demo.ts';
import worker from '../../../worker/index.ts';
import { KV_READ_TIMEOUT_MS, readKvText } from '../../../worker/kv/read-text.ts';
import { UA } from '../../fixtures/agents.ts';
import { get, ORIGIN } from '../helpers.ts';

const BUDGET_MS = 600;
const HANG_MS = 5000;

type Fault = 'throws' | 'null' | 'non-JSON' | 'hangs 5 s';

/** A namespace that misbehaves on every call the way `fault` says. */
function faultyKv(fault: Fault): KVNamespace {
  const answer = async (type?: unknown): Promise<unknown> => {
    switch (fault) {
      case 'throws':
        throw new Error('KV unavailable (injected)');
      case 'null':
        return null;
      case 'non-JSON':
        if (type === 'json' || (typeof type === 'object' && type !== null && 'type' in type && type.type === 'json')) {
          throw new SyntaxError('Unexpected token < in JSON (injected)');
        }
        return '<!doctype html><title>502 Bad Gateway</title>';
      case 'hangs 5 s':
        await new Promise((resolve) => setTimeout(resolve, HANG_MS));
        return null;
    }
  };
  const kv = {
    get: (_key: unknown, type?: unknown) => answer(type),
    getWithMetadata: async (_key: unknown, type?: unknown) => ({ value: await answer(type), metadata: null }),
    list: async () => {
      await answer();
      return { keys: [], list_complete: true, cacheStatus: null };
    },
    put: async () => {
      await answer();
    },
    delete: async () => {
      await answer();
    },
  };
  return kv as unknown as KVNamespace;
}

/**
 * The worker with `kv` as its namespace; how long it took to answer completely. Its work after the
 * response (a read still hanging) is awaited after the clock stops: it is no part of the answer.
 */
async function timed(path: string, kv: KVNamespace): Promise<{ res: Response; body: string; ms: number }> {
  const ctx = createExecutionContext();
  const started = performance.now();
  const request = new Request(`${ORIGIN}${path}`, { headers: { 'user-agent': UA.iPhoneSafari } });
  const res = await worker.fetch(request, { ...env, KV: kv }, ctx);
  const body = await res.text();
  const ms = performance.now() - started;
  await waitOnExecutionContext(ctx);
  return { res, body, ms };
}

const FAULTS: Fault[] = ['throws', 'null', 'non-JSON', 'hangs 5 s'];
let carried: { id: string; timestamp: number };

beforeAll(async () => {
  const latest = await (await get('/assets/builds/latest.json')).json();
  carried = latest as { id: string; timestamp: number };
  // Warm the isolate: module loading is not what the budget is about.
  await get('/');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(FAULTS)('KV that %s', (fault) => {
  it(`answers the page with 200 and a complete document within ${BUDGET_MS} ms`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const path of ['/', '/landing']) {
      const { res, body, ms } = await timed(path, faultyKv(fault));
      expect(res.status, path).toBe(200);
      expect(body.trimEnd().endsWith('</html>'), path).toBe(true);
      expect(body).toContain('id="lander-data"');
      expect(ms, path).toBeLessThan(BUDGET_MS);
    }
  });

  it('serves the page from the bundled demo config, marked as a fallback', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { res, body } = await timed('/', faultyKv(fault));
    expect(env.CONFIG_CACHE_SECONDS).toBe('0');
    expect(res.headers.get('x-config')).toBe('fallback');
    const demoVersion = DEMO_CONFIG.appData.find((app) => app.plat === 2)?.version ?? 'missing';
    expect(body).toContain(demoVersion);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Config fallback'));
  });

  it(`answers latest.json with the carried build within ${BUDGET_MS} ms`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { res, body, ms } = await timed(`/assets/builds/latest.json?${Date.now()}`, faultyKv(fault));
    expect(res.status).toBe(200);
    expect(JSON.parse(body)).toEqual(carried);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(ms).toBeLessThan(BUDGET_MS);
  });

  it(`answers the build manifest with the carried one within ${BUDGET_MS} ms`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { res, body, ms } = await timed(`/assets/builds/meta/${carried.id}.json`, faultyKv(fault));
    expect(res.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ ...carried, matcher: routeRules });
    expect(ms).toBeLessThan(BUDGET_MS);
  });
});

describe('the budget of one KV read', () => {
  it(`gives up a read that has not answered within ${KV_READ_TIMEOUT_MS} ms`, async () => {
    const started = performance.now();
    expect(await readKvText(faultyKv('hangs 5 s'), 'any')).toEqual({ kind: 'timeout' });
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(KV_READ_TIMEOUT_MS - 5);
    expect(ms).toBeLessThan(KV_READ_TIMEOUT_MS + 200);
  });

  it('tells a thrown read from a missing key from a value', async () => {
    expect((await readKvText(faultyKv('throws'), 'k')).kind).toBe('failed');
    expect(await readKvText(faultyKv('null'), 'k')).toEqual({ kind: 'absent' });
    expect(await readKvText(faultyKv('non-JSON'), 'k')).toEqual({
      kind: 'value',
      text: '<!doctype html><title>502 Bad Gateway</title>',
    });
  });

  it('an unknown build stays a 404 when KV finds nothing, not a stand-in', async () => {
    const { res } = await timed('/assets/builds/meta/some-other-build.json', faultyKv('null'));
    expect(res.status).toBe(404);
  });
});
