/**
 * The benchmark's in-memory KV service, called as workerd's binding calls it (the wire format in
 * tools/bench/workers/kv.ts). tools/tests/serve.test.ts checks the same against real workerd.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import kv, { control, type KvSeedEntry, parseFault, parseSeed } from '../bench/workers/kv.ts';

const env = { SEED: [] };

function binding(path: string, init?: RequestInit): Promise<Response> {
  return Promise.resolve(kv.fetch(new Request(`https://fake-host${path}`, init), env));
}

function steer(path: string, method = 'GET', body?: unknown): Promise<Response> {
  const init: RequestInit = { method, body: body === undefined ? undefined : JSON.stringify(body) };
  return Promise.resolve(control.fetch(new Request(`http://127.0.0.1${path}`, init), env));
}

async function seed(entries: KvSeedEntry[]): Promise<void> {
  expect((await steer('/entries', 'PUT', entries)).status).toBe(200);
}

beforeEach(async () => {
  await steer('/fault', 'PUT', { mode: 'none' });
  await steer('/stats', 'DELETE');
  await seed([
    { key: 'config', value: '{"name":"Demo"}', metadata: { v: 2 } },
    { key: 'builds/a', value: 'A' },
    { key: 'builds/b', value: 'B' },
    { key: 'builds/c', value: 'C' },
    { key: 'bin', value: 'AAEC', base64: true },
  ]);
});

describe('KV wire format', () => {
  it('answers a get with the value and its metadata header', async () => {
    const response = await binding('/config?urlencoded=true');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Demo"}');
    expect(response.headers.get('cf-kv-metadata')).toBe('{"v":2}');
  });

  it('answers 404 for a missing key (the binding reads null)', async () => {
    expect((await binding('/nope?urlencoded=true')).status).toBe(404);
  });

  it('decodes percent-encoded keys and stores binary values byte for byte', async () => {
    const key = encodeURIComponent('a key/é?x');
    expect((await binding(`/${key}?urlencoded=true`, { method: 'PUT', body: 'v' })).status).toBe(200);
    expect(await (await binding(`/${key}?urlencoded=true`)).text()).toBe('v');
    expect([...new Uint8Array(await (await binding('/bin?urlencoded=true')).arrayBuffer())]).toEqual([0, 1, 2]);
  });

  it('answers 400, not 500, for a key whose percent-encoding is broken', async () => {
    expect((await binding('/%E0%A4%A?urlencoded=true')).status).toBe(400);
  });

  it('stores metadata and a TTL given on put', async () => {
    const init = { method: 'PUT', body: 'x', headers: { 'cf-kv-metadata': '{"m":1}' } };
    await binding('/k?urlencoded=true&expiration_ttl=120', init);
    const response = await binding('/k?urlencoded=true');
    expect(response.headers.get('cf-kv-metadata')).toBe('{"m":1}');
    expect(Number(response.headers.get('cf-expiration'))).toBeGreaterThan(Date.now() / 1000 + 100);
  });

  it('treats an expired entry as absent', async () => {
    await seed([{ key: 'old', value: 'x', expiration: Math.floor(Date.now() / 1000) - 1 }]);
    expect((await binding('/old?urlencoded=true')).status).toBe(404);
  });

  it('deletes a key', async () => {
    await binding('/config?urlencoded=true', { method: 'DELETE' });
    expect((await binding('/config?urlencoded=true')).status).toBe(404);
  });

  it('lists by prefix in key order, a page at a time, with metadata as JSON text', async () => {
    const first = await (await binding('/?key_count_limit=2&prefix=builds%2F')).json<{ cursor: string }>();
    expect(first).toMatchObject({ keys: [{ name: 'builds/a' }, { name: 'builds/b' }], list_complete: false });
    const second = await (await binding(`/?key_count_limit=2&prefix=builds%2F&cursor=${first.cursor}`)).json();
    expect(second).toMatchObject({ keys: [{ name: 'builds/c' }], list_complete: true });
    const all = await (await binding('/?prefix=conf')).json<{ keys: unknown[] }>();
    expect(all.keys).toEqual([{ name: 'config', metadata: '{"v":2}' }]);
  });

  it('answers a bulk get as text, as JSON, and with metadata', async () => {
    const post = (body: unknown) => binding('/bulk/get', { method: 'POST', body: JSON.stringify(body) });
    expect(await (await post({ keys: ['builds/a', 'nope'] })).json()).toEqual({ 'builds/a': 'A', nope: null });
    expect(await (await post({ keys: ['config'], type: 'json' })).json()).toEqual({ config: { name: 'Demo' } });
    expect(await (await post({ keys: ['config'], withMetadata: true })).json()).toEqual({
      config: { value: '{"name":"Demo"}', metadata: { v: 2 } },
    });
    expect((await post({ keys: ['builds/a'], type: 'json' })).status).toBe(400);
  });
});

describe('KV faults', () => {
  it('throws in throw mode, so the binding call rejects', async () => {
    await steer('/fault', 'PUT', { mode: 'throw' });
    await expect(binding('/config?urlencoded=true')).rejects.toThrow(/KV fault injected/);
  });

  it('answers 500 in error mode', async () => {
    await steer('/fault', 'PUT', { mode: 'error' });
    expect((await binding('/config?urlencoded=true')).status).toBe(500);
  });

  it('finds nothing in null mode', async () => {
    await steer('/fault', 'PUT', { mode: 'null' });
    expect((await binding('/config?urlencoded=true')).status).toBe(404);
    expect((await (await binding('/?prefix=')).json<{ keys: unknown[] }>()).keys).toEqual([]);
  });

  it('answers reads with an HTML body in non-json mode', async () => {
    await steer('/fault', 'PUT', { mode: 'non-json' });
    const body = await (await binding('/config?urlencoded=true')).text();
    expect(() => JSON.parse(body)).toThrow();
  });

  it('waits the given milliseconds in hang mode, then answers', async () => {
    await steer('/fault', 'PUT', { mode: 'hang', ms: 150 });
    const started = performance.now();
    const response = await binding('/config?urlencoded=true');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await response.text()).toBe('{"name":"Demo"}');
  });

  it('faults only keys under the prefix when one is given, and counts them', async () => {
    await steer('/fault', 'PUT', { mode: 'error', prefix: 'builds/' });
    expect((await binding('/builds/a?urlencoded=true')).status).toBe(500);
    expect((await binding('/config?urlencoded=true')).status).toBe(200);
    const state = await (await steer('/')).json<{ stats: unknown }>();
    expect(state.stats).toMatchObject({ get: 1, faulted: 1 });
  });

  it('rejects a malformed fault or seed with 400', async () => {
    expect((await steer('/fault', 'PUT', { mode: 'explode' })).status).toBe(400);
    expect((await steer('/fault', 'PUT', { mode: 'hang', ms: -1 })).status).toBe(400);
    expect((await steer('/entries', 'PUT', [{ key: '', value: 'x' }])).status).toBe(400);
    expect((await steer('/entries', 'PUT', 'not entries')).status).toBe(400);
    expect(parseFault({ mode: 'hang', ms: 5000 })).toEqual({ mode: 'hang', ms: 5000, prefix: undefined });
    expect(parseSeed([{ key: 'k', value: '%%%', base64: true }])).toMatch(/base64/);
  });
});
