/** The load modes' pieces: wrk Lua scripts, status classes, the hostile mix, the bar and the memory verdict. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileRequests } from '../bench/hostile-requests.ts';
import { type LoadResult, load, parseWrk } from '../bench/load.ts';
import { kvRequests, loadRow, visitRequests } from '../bench/load-modes.ts';
import { memoryVerdict, warmupSamples } from '../bench/soak.ts';
import {
  countingScript,
  cyclingScript,
  luaString,
  parseKeptCounts,
  parsePageKeys,
  parseStatusClasses,
} from '../bench/wrk-scripts.ts';
import { needWrk } from './wrk.ts';

const result = (changes: Partial<LoadResult>): LoadResult => ({
  tool: 'wrk',
  requestsPerSecond: 100,
  requests: 1000,
  p50: 1,
  p99: 2,
  non2xx3xx: 0,
  socketErrors: 0,
  statusClasses: { '2xx': 1000, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 },
  ...changes,
});

describe('wrk Lua scripts', () => {
  it('writes any text as a Lua string of its UTF-8 bytes', () => {
    expect(luaString('a"b\\c')).toBe('"a\\034b\\092c"');
    expect(luaString('\u00ff\t\n')).toBe('"\\195\\191\\009\\010"');
    expect(luaString('plain /path?x=1')).toBe('"plain /path?x=1"');
  });

  it('reads the status classes the scripts print, and wrk output carries them through', () => {
    const line = 'Status classes: 2xx 10, 3xx 2, 4xx 5, 5xx 1, other 0';
    expect(parseStatusClasses(`x\n${line}\n`)).toEqual({ '2xx': 10, '3xx': 2, '4xx': 5, '5xx': 1, other: 0 });
    expect(parseStatusClasses('no such line')).toBeUndefined();
    const wrk = `  10 requests in 1.00s, 1.00MB read\nRequests/sec:     10.00\n${line}\n`;
    expect(parseWrk(wrk).statusClasses?.['5xx']).toBe(1);
  });

  it('reads the kept pages and distinct page keys the scripts print', () => {
    const out = 'Kept pages: hit 7, miss 3\nPage keys: distinct 4\n';
    expect(parseKeptCounts(out)).toEqual({ hit: 7, miss: 3 });
    expect(parsePageKeys(out)).toBe(4);
    expect(parsePageKeys('Kept pages: hit 7, miss 3')).toBeUndefined();
    const wrk = `  10 requests in 1.00s, 1.00MB read\nRequests/sec:     10.00\n${out}`;
    expect(parseWrk(wrk).pageKeys).toBe(4);
  });

  it('counts kept pages by the start of Server-Timing, and distinct page keys over all threads, when run by real wrk', async () => {
    needWrk();
    let nextConnection = 0;
    // Ten paths: the first five name keys every thread sees, the rest the key of their connection,
    // so each of the two threads (one connection each) sees six keys and only the union has seven.
    const connections = new WeakMap<object, number>();
    const server = createServer((req, res) => {
      const i = Number(req.url?.slice(2));
      const page = i < 5 ? `k${i}` : `c${connections.get(req.socket)}`;
      const timing = req.url === '/plain' ? 'kept;desc=hit' : `kept;desc=${i % 2 ? 'miss' : 'hit'}, page;desc=${page}`;
      res.writeHead(200, { 'server-timing': timing });
      res.end('x');
    });
    server.on('connection', (socket) => connections.set(socket, nextConnection++));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'lander-wrk-'));
    try {
      const scriptPath = join(dir, 'keys.lua');
      writeFileSync(scriptPath, cyclingScript(Array.from({ length: 10 }, (_, i) => ({ path: `/p${i}` }))));
      const { port } = server.address() as AddressInfo;
      const options = { url: `http://127.0.0.1:${port}`, duration: 1, connections: 2, threads: 2 };
      const r = await load({ ...options, wrkScript: scriptPath });
      expect((r.kept?.hit ?? 0) + (r.kept?.miss ?? 0)).toBe(r.requests);
      expect(Math.abs((r.kept?.hit ?? 0) * 2 - r.requests)).toBeLessThanOrEqual(8);
      expect(r.pageKeys).toBe(7);
      // A page that names no key: counted as kept, no key seen.
      writeFileSync(scriptPath, countingScript());
      const plain = await load({ ...options, url: `${options.url}/plain`, wrkScript: scriptPath });
      expect(plain.kept).toEqual({ hit: plain.requests, miss: 0 });
      expect(plain.pageKeys).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);

  it('refuses to cycle through no requests', () => {
    expect(() => cyclingScript([])).toThrow();
  });

  it('counts 2xx, 3xx, 4xx and 5xx apart when run by real wrk, sending the headers byte for byte', async () => {
    needWrk();
    const agents = new Set<string>();
    const server = createServer((req, res) => {
      agents.add(Buffer.from(req.headers['user-agent'] ?? '', 'latin1').toString('utf8'));
      const status = { '/ok': 200, '/moved': 302, '/missing': 404, '/broken': 500 }[req.url ?? ''] ?? 400;
      // The page's own signal: a kept page says hit, a rendered one miss.
      const timing = req.url === '/ok' ? { 'server-timing': 'kept;desc=hit' } : { 'server-timing': 'kept;desc=miss' };
      res.writeHead(status, status === 302 ? { location: '/ok', ...timing } : timing);
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'lander-wrk-'));
    try {
      const scriptPath = join(dir, 'cycle.lua');
      writeFileSync(
        scriptPath,
        cyclingScript(
          ['/ok', '/moved', '/missing', '/broken'].map((path) => ({ path, headers: { 'User-Agent': `ÿ ${path}` } })),
        ),
      );
      const { port } = server.address() as AddressInfo;
      const r = await load({ url: `http://127.0.0.1:${port}`, duration: 1, connections: 2, wrkScript: scriptPath });
      const classes = r.statusClasses;
      expect(classes).toBeDefined();
      for (const key of ['2xx', '3xx', '4xx', '5xx'] as const) expect(classes?.[key]).toBeGreaterThan(0);
      expect(classes?.other).toBe(0);
      expect(r.non2xx3xx).toBe((classes?.['4xx'] ?? 0) + (classes?.['5xx'] ?? 0));
      expect(agents).toEqual(new Set(['ÿ /ok', 'ÿ /moved', 'ÿ /missing', 'ÿ /broken']));
      // Every answer said hit or miss: /ok a quarter of them, hits.
      expect((r.kept?.hit ?? 0) + (r.kept?.miss ?? 0)).toBe(r.requests);
      expect(Math.abs((r.kept?.hit ?? 0) * 4 - r.requests)).toBeLessThanOrEqual(8);
      writeFileSync(scriptPath, countingScript());
      const counted = await load({
        url: `http://127.0.0.1:${port}/missing`,
        duration: 1,
        connections: 1,
        wrkScript: scriptPath,
      });
      expect(counted.statusClasses?.['4xx']).toBe(counted.requests);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});

describe('the bar of every load mode', () => {
  it('passes with no 5xx and no socket error, 4xx allowed', () => {
    const row = loadRow(
      'x',
      result({ non2xx3xx: 50, statusClasses: { '2xx': 950, '3xx': 0, '4xx': 50, '5xx': 0, other: 0 } }),
    );
    expect(row.budget?.ok).toBe(true);
    expect(row.value).toContain('4xx 50, 5xx 0');
  });

  it('fails on a single 5xx, a single socket error, or when 5xx were not counted', () => {
    expect(
      loadRow('x', result({ statusClasses: { '2xx': 9, '3xx': 0, '4xx': 0, '5xx': 1, other: 0 } })).budget?.ok,
    ).toBe(false);
    expect(loadRow('x', result({ socketErrors: 1 })).budget?.ok).toBe(false);
    expect(loadRow('x', result({ statusClasses: undefined })).budget?.ok).toBe(false);
  });
});

describe('request lists', () => {
  it('hostile mix: bad paths, queries and agents, all valid on the wire', () => {
    const requests = hostileRequests();
    const paths = requests.map((r) => r.path);
    for (const path of ['/%', '/%E0%A4%A', '/%00', '//evil.com', '/%5Cevil.com', '/?d=%'])
      expect(paths).toContain(path);
    expect(paths.some((p) => p.length >= 16_000)).toBe(true);
    expect(requests.some((r) => r.headers?.['User-Agent'] === '')).toBe(true);
    expect(requests.some((r) => (r.headers?.['User-Agent'] ?? '').startsWith('Mozilla/5.0 ((((('))).toBe(true);
    for (const { path, headers = {} } of requests) {
      expect(path.startsWith('/')).toBe(true);
      // No whitespace or control character in a request target; no CR, LF or NUL in a header value.
      expect([...path].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f)).toBe(false);
      for (const value of Object.values(headers)) expect(/[\r\n]/.test(value) || value.includes('\0')).toBe(false);
    }
  });

  it('KV mode covers the page and both build calls; the soak covers pages, APIs and a file', () => {
    expect(kvRequests('abc').map((r) => r.path.split('?')[0])).toEqual([
      '/',
      '/landing',
      '/assets/builds/latest.json',
      '/assets/builds/meta/abc.json',
    ]);
    const soakPaths = new Set(visitRequests().map((r) => r.path.split('?')[0]));
    for (const path of ['/', '/landing', '/api/device', '/logo.png', '/assets/builds/latest.json']) {
      expect(soakPaths.has(path)).toBe(true);
    }
  });
});

describe('memory over a soak', () => {
  const MiB = 2 ** 20;
  const series = (values: number[]) => values.map((n) => n * MiB);

  it('is steady when it plateaus after warming up, the warm-up left out', () => {
    const verdict = memoryVerdict(series([150, 220, 260, 300, 330, 340, 312, 315, 320, 313, 317, 315]), 4);
    expect(verdict).toMatchObject({ first: 150 * MiB, last: 315 * MiB, max: 340 * MiB, steady: true });
  });

  it('is not steady when it keeps growing after the warm-up', () => {
    expect(memoryVerdict(series([280, 300, 320, 340, 360, 380, 400, 420, 440, 460, 480, 500]), 4)?.steady).toBe(false);
  });

  it('would call the warm-up itself growth: that is why it is left out', () => {
    const warmingUp = series([150, 220, 260, 300, 330, 340, 312, 315]);
    expect(memoryVerdict(warmingUp, 0)?.steady).toBe(false);
    expect(memoryVerdict(warmingUp, 4)?.steady).toBe(true);
  });

  it('needs four samples after the warm-up', () => {
    expect(memoryVerdict([1, 2, 3, 4, 5], 2)).toBeUndefined();
  });

  it('leaves out the first quarter of the soak, at least 30 s', () => {
    expect(warmupSamples(300)).toBe(15);
    expect(warmupSamples(60)).toBe(6);
  });
});
