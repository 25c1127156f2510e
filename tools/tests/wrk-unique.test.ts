/** The wrk script whose every request is new: a value of its own in each path and body, across runs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from '../bench/load.ts';
import { UNIQUE, uniqueScript } from '../bench/wrk-unique.ts';
import { needWrk } from './wrk.ts';

describe('the unique-request wrk script', () => {
  it('refuses an empty list', () => {
    expect(() => uniqueScript([])).toThrow();
  });

  it('replaces the mark in every path and body with a value no other request has, in two runs of one script', async () => {
    needWrk();
    const seen: { method: string; url: string; body: string; agent: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', body, agent: String(req.headers['user-agent']) });
        res.end('x');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'lander-unique-'));
    try {
      const path = join(dir, 'unique.lua');
      writeFileSync(
        path,
        uniqueScript([
          { path: `/?channel=${UNIQUE}`, headers: { 'User-Agent': 'page' } },
          { method: 'POST', path: '/click', headers: { 'User-Agent': 'click' }, body: `{"clickId":"${UNIQUE}"}` },
        ]),
      );
      const { port } = server.address() as AddressInfo;
      const options = { url: `http://127.0.0.1:${port}`, duration: 1, connections: 2, threads: 2, wrkScript: path };
      const first = await load(options);
      const second = await load(options);
      // wrk leaves out of its count the requests still in flight when it stops.
      expect(seen.length).toBeGreaterThanOrEqual(first.requests + second.requests);
      const values = seen.map((s) =>
        s.method === 'POST' ? /^\{"clickId":"(.*)"\}$/.exec(s.body)?.[1] : /^\/\?channel=(.*)$/.exec(s.url)?.[1],
      );
      expect(values.every((v) => v !== undefined && /^[0-9a-f]{22}$/.test(v))).toBe(true);
      expect(new Set(values).size).toBe(seen.length);
      expect(new Set(seen.map((s) => `${s.method} ${s.agent}`))).toEqual(new Set(['GET page', 'POST click']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});
