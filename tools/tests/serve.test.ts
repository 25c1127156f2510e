/**
 * The benchmark server on real workerd (`workerd serve` with the generated config): a probe worker
 * checks the KV service against workerd's own `kvNamespace` binding, fault injection included, and
 * the vars and ASSETS bindings, and the location's cache two isolates share; the production bundle
 * checks the front's routing, the floor and the second isolate.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTool, ROOT } from '../../scripts/lib/run.ts';
import { localSeed } from '../../scripts/seed-local.ts';
import { UA } from '../../tests/fixtures/agents.ts';
import { captureFloor } from '../bench/floor.ts';
import { isolateHeap } from '../bench/heap.ts';
import { type Served, serveProduction } from '../bench/serve.ts';

const PROBE = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const key = url.searchParams.get('key') ?? '';
    const keys = url.searchParams.getAll('keys');
    const type = url.searchParams.get('type') ?? 'text';
    try {
      switch (url.pathname) {
        case '/get': return Response.json({ value: await env.KV.get(key, type) });
        case '/meta': return Response.json(await env.KV.getWithMetadata(key, type));
        case '/bulk': return Response.json(Object.fromEntries(await env.KV.get(keys, type)));
        case '/bulk-meta': return Response.json(Object.fromEntries(await env.KV.getWithMetadata(keys, type)));
        case '/put':
          await env.KV.put(key, await request.text(), { metadata: { by: 'probe' }, expirationTtl: 3600 });
          return Response.json({ ok: true });
        case '/delete': await env.KV.delete(key); return Response.json({ ok: true });
        case '/list': {
          const limit = Number(url.searchParams.get('limit') ?? 1000);
          const cursor = url.searchParams.get('cursor') ?? undefined;
          return Response.json(await env.KV.list({ prefix: url.searchParams.get('prefix') ?? '', limit, cursor }));
        }
        case '/cache-put': {
          const control = url.searchParams.get('cc') ?? 'max-age=60';
          await caches.default.put(key, new Response(await request.text(), { headers: { 'cache-control': control } }));
          return Response.json({ ok: true });
        }
        case '/cache-get': {
          const kept = await caches.default.match(key);
          return Response.json({ value: kept ? await kept.text() : null });
        }
        case '/vars': return Response.json({ ODD: env.ODD, OBJ: env.OBJ, LANDER_ENV: env.LANDER_ENV });
        case '/assets': {
          const response = await env.ASSETS.fetch(new URL(key, 'http://assets/'));
          return Response.json({ status: response.status, type: response.headers.get('content-type') });
        }
      }
      return new Response('probe: no such path', { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  },
};
`;

const IPHONE = UA.iPhoneSafari;
const dirs: string[] = [];
const servers: Served[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lander-bench-test-'));
  dirs.push(dir);
  return dir;
}

async function start(options: Parameters<typeof serveProduction>[0]): Promise<Served> {
  const server = await serveProduction({ outDir: tempDir(), ...options });
  servers.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('bench KV service behind workerd’s kvNamespace binding', () => {
  let server: Served;
  const probe = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${server.url}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    const workerDir = tempDir();
    writeFileSync(join(workerDir, 'index.js'), PROBE);
    const clientDir = tempDir();
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'assets', 'app.js'), 'export {};');
    server = await start({
      workerDir,
      clientDir,
      vars: { ODD: 'say "hé"\\\nnext', OBJ: { n: 1 } },
      kv: [
        { key: 'config', value: '{"name":"Demo"}', metadata: { v: 2 } },
        { key: 'builds/a', value: 'A' },
        { key: 'builds/b', value: 'B' },
        { key: 'builds/c', value: 'C' },
      ],
    });
  }, 60_000);

  it('shares what one isolate keeps with the Cache API with the other, as one location does', async () => {
    const key = encodeURIComponent('http://cache.test/page?x=1');
    await probe(`/cache-put?key=${key}`, { method: 'PUT', body: 'kept once' });
    const second = await fetch(`${server.secondUrl}/cache-get?key=${key}`);
    expect(await second.json()).toEqual({ value: 'kept once' });
    expect((await probe(`/cache-get?key=${encodeURIComponent('http://cache.test/other')}`)).body).toEqual({
      value: null,
    });
  });

  it('keeps nothing private, unstorable or without a lifetime in the location cache', async () => {
    for (const cc of ['private, max-age=60', 'no-store', '']) {
      const key = encodeURIComponent(`http://cache.test/${cc || 'none'}`);
      await probe(`/cache-put?key=${key}&cc=${encodeURIComponent(cc)}`, { method: 'PUT', body: 'x' }).catch(() => null);
      expect((await probe(`/cache-get?key=${key}`)).body).toEqual({ value: null });
    }
  });

  it('reads seeded values as text, JSON and with metadata; null for a missing key', async () => {
    expect((await probe('/get?key=config')).body).toEqual({ value: '{"name":"Demo"}' });
    expect((await probe('/get?key=config&type=json')).body).toEqual({ value: { name: 'Demo' } });
    expect((await probe('/meta?key=config&type=json')).body).toMatchObject({
      value: { name: 'Demo' },
      metadata: { v: 2 },
    });
    expect((await probe('/get?key=missing')).body).toEqual({ value: null });
  });

  it('writes, reads back and deletes a key with spaces, slashes and non-ASCII characters', async () => {
    const key = encodeURIComponent('a key/é?x');
    await probe(`/put?key=${key}`, { method: 'PUT', body: 'stored' });
    expect((await probe(`/meta?key=${key}`)).body).toMatchObject({ value: 'stored', metadata: { by: 'probe' } });
    await probe(`/delete?key=${key}`);
    expect((await probe(`/get?key=${key}`)).body).toEqual({ value: null });
  });

  it('lists by prefix a page at a time', async () => {
    const first = await probe('/list?prefix=builds/&limit=2');
    expect(first.body).toMatchObject({ keys: [{ name: 'builds/a' }, { name: 'builds/b' }], list_complete: false });
    const second = await probe(`/list?prefix=builds/&limit=2&cursor=${String(first.body.cursor)}`);
    expect(second.body).toMatchObject({ keys: [{ name: 'builds/c' }], list_complete: true });
    expect((await probe('/list?prefix=config')).body).toMatchObject({ keys: [{ name: 'config', metadata: { v: 2 } }] });
  });

  it('answers bulk gets, with and without metadata', async () => {
    expect((await probe('/bulk?keys=builds/a&keys=missing')).body).toEqual({ 'builds/a': 'A', missing: null });
    expect((await probe('/bulk-meta?keys=config&type=json')).body).toEqual({
      config: { value: { name: 'Demo' }, metadata: { v: 2 } },
    });
  });

  it('makes KV calls fail, find nothing, return non-JSON or hang on demand', async () => {
    try {
      await server.setKvFault({ mode: 'throw' });
      expect(await probe('/get?key=config')).toMatchObject({ status: 500, body: { error: expect.any(String) } });
      await server.setKvFault({ mode: 'error' });
      expect((await probe('/get?key=config')).status).toBe(500);
      await server.setKvFault({ mode: 'null' });
      expect((await probe('/get?key=config&type=json')).body).toEqual({ value: null });
      await server.setKvFault({ mode: 'non-json' });
      expect((await probe('/get?key=config&type=json')).body.error).toMatch(/SyntaxError|JSON/);
      await server.setKvFault({ mode: 'hang', ms: 300, prefix: 'config' });
      const started = performance.now();
      expect((await probe('/get?key=config')).body).toEqual({ value: '{"name":"Demo"}' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect((await server.kvState()).stats.faulted).toBeGreaterThanOrEqual(5);
    } finally {
      await server.setKvFault({ mode: 'none' });
    }
    expect((await probe('/get?key=config')).body).toEqual({ value: '{"name":"Demo"}' });
  });

  it('passes vars through the config exactly, strings as text and objects as JSON', async () => {
    expect((await probe('/vars')).body).toEqual({ ODD: 'say "hé"\\\nnext', OBJ: { n: 1 }, LANDER_ENV: 'production' });
  });

  it('gives the worker an ASSETS binding over the client build', async () => {
    expect((await probe('/assets?key=/assets/app.js')).body).toEqual({
      status: 200,
      type: 'text/javascript; charset=utf-8',
    });
    expect((await probe('/assets?key=/nope.js')).body).toMatchObject({ status: 404 });
  });
});

describe('the V8 heap of an isolate, through workerd’s inspector', () => {
  const GROWING = `const kept = [];
export default {
  fetch() {
    kept.push(new Array(1 << 20).fill(kept.length + 0.5));
    return new Response(String(kept.length));
  },
};`;

  it('reads the used heap, which grows by what the worker keeps', async () => {
    const workerDir = tempDir();
    writeFileSync(join(workerDir, 'index.js'), GROWING);
    const server = await start({ workerDir, clientDir: tempDir(), inspectorPort: 0 });
    const before = await isolateHeap(server.inspectorUrl ?? '');
    // Each request keeps an array of 2^20 doubles: 8 MiB.
    await (await fetch(`${server.url}/grow`)).text();
    const after = await isolateHeap(server.inspectorUrl ?? '');
    expect(after.usedBytes - before.usedBytes).toBeGreaterThan(7 * 2 ** 20);
    expect(after.totalBytes).toBeGreaterThanOrEqual(after.usedBytes);
  });
});

/** The `Server-Timing` of `path` asked of `origin`'s socket as if of `host` (node:http sends any Host). */
function timingAs(origin: string, host: string, path: string): Promise<string> {
  const target = new URL(origin);
  return new Promise((resolve, reject) => {
    const headers = { host, 'user-agent': IPHONE };
    request({ host: target.hostname, port: target.port, path, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.headers['server-timing'] ?? '')));
    })
      .on('error', reject)
      .end();
  });
}

describe('bench server with the production bundle', () => {
  let server: Served;
  let url: string;
  let peerUrl: string;
  const clientDir = join(ROOT, 'dist/client');

  beforeAll(async () => {
    // `npm test` builds the client first; a lone `vitest run --project unit` may not have.
    if (!existsSync(join(clientDir, '.vite/manifest.json'))) captureTool('vite', ['build', '--logLevel', 'warn']);
    const workerDir = tempDir();
    captureTool('wrangler', ['deploy', '--dry-run', '--outdir', workerDir, '--minify', '--env', 'production']);
    // Production answers a 503 without a configuration of its own: the bench's demo one, as the bench seeds it.
    server = await start({ workerDir, kv: localSeed() });
    ({ url, peerUrl } = server);
  }, 120_000);

  it("has the floor answer the kept page's exact bytes and headers", async () => {
    // captureFloor throws unless the floor's answer is the kept page's, byte for byte, header for header.
    expect(await captureFloor(server, '/?channel=floor', { 'user-agent': IPHONE })).toBeGreaterThan(1000);
  });

  it("has the first visitor's floor look the page up in the location cache, answer it, and keep it there", async () => {
    const kept = await fetch(`${server.floorUrl}/`, { headers: { 'user-agent': IPHONE } });
    const page = await kept.text();
    const at = `${server.floorMissUrl}/?channel=first-visit`;
    const first = await fetch(at, { headers: { 'user-agent': IPHONE } });
    expect(first.headers.get('server-timing')).toBe('location;desc=miss');
    expect(first.headers.get('content-security-policy')).toBe(kept.headers.get('content-security-policy'));
    expect(await first.text()).toBe(page);
    // Kept after the response: the next request for that URL finds it, the same bytes.
    await expect
      .poll(async () => (await fetch(at, { headers: { 'user-agent': IPHONE } })).headers.get('server-timing'))
      .toBe('location;desc=hit');
    expect(await (await fetch(at)).text()).toBe(page);
    const other = await fetch(`${server.floorMissUrl}/?channel=first-visit-2`);
    expect(other.headers.get('server-timing')).toBe('location;desc=miss');
    await other.body?.cancel();
  });

  it('has the second isolate answer a page the first one kept from the location cache, then keep it', async () => {
    const host = new URL(url).host;
    expect(await timingAs(url, host, '/?channel=second')).toMatch(/^kept;desc=miss/);
    // The first isolate keeps the page after its response, then shares it: wait for both.
    await expect.poll(() => timingAs(url, host, '/?channel=second')).toMatch(/^kept;desc=hit/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await timingAs(server.secondUrl, host, '/?channel=second')).toMatch(/^kept;desc=shared/);
    expect(await timingAs(server.secondUrl, host, '/?channel=second')).toMatch(/^kept;desc=hit/);
    expect(await timingAs(server.secondUrl, host, '/?channel=second-new')).toMatch(/^kept;desc=miss/);
  });

  it("takes the funnel queue's sends as a queue broker does, so a counted view costs no retry or loss", async () => {
    for (let i = 0; i < 3; i += 1) await (await fetch(`${url}/`, { headers: { 'user-agent': IPHONE } })).text();
    // A batch is sent after 100 ms; a refused one again 250 ms later, then counted as lost.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(server.logs()).not.toMatch(/Funnel event not sent|Lost \d+ funnel-events/);
  });

  it('serves the peers’ plain Hono + React page on its own socket, naming the store for the agent', async () => {
    const iphone = await fetch(`${peerUrl}/`, { headers: { 'user-agent': IPHONE } });
    expect(iphone.status).toBe(200);
    expect(iphone.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await iphone.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">.*Get it on <!-- -->App Store.*<\/html>$/s);
    const android = await fetch(`${peerUrl}/`, { headers: { 'user-agent': UA.androidChrome } });
    expect(await android.text()).toContain('Google Play');
  });

  it('renders / on the worker and serves the icon from the build, through one socket', async () => {
    const page = await fetch(`${url}/`, { headers: { 'user-agent': IPHONE } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toMatch(/<\/html>$/);
    const icon = await fetch(`${url}/logo.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).equals(readFileSync(join(clientDir, 'logo.png')))).toBe(true);
  });

  it('serves the hashed entry module as JavaScript', async () => {
    const manifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean }
    >;
    const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
    const response = await fetch(`${url}/${entry?.file}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // Compressed by workerd, as Cloudflare's edge would; fetch decodes it back to the file.
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toBe(readFileSync(join(clientDir, entry?.file ?? ''), 'utf8'));
  });

  it('leaves unknown paths, dotfiles and other methods to the worker', async () => {
    const headers = { 'user-agent': IPHONE };
    expect((await fetch(`${url}/no-such-page`, { headers })).status).toBe(404);
    const dotfile = await fetch(`${url}/.vite/manifest.json`, { headers });
    expect(dotfile.status).toBe(404);
    expect(dotfile.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(`${url}/logo.png`, { method: 'POST', headers })).status).toBe(405);
  });
});
