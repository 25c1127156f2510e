/** The traffic mix's pieces: the shipped agent list, its checks, and the wrk script that sends the mix. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from '../bench/load.ts';
import {
  deviceOf,
  distinctAgents,
  MIN_AGENTS,
  readTrafficAgents,
  type TrafficAgent,
  validTrafficAgents,
} from '../bench/traffic-agents.ts';
import { mixRatioRow, pageKeysRow } from '../bench/traffic-mix.ts';
import { mixScript } from '../bench/wrk-scripts.ts';
import { needWrk } from './wrk.ts';

const agentsOf = (count: number): TrafficAgent[] =>
  Array.from({ length: count }, (_, i) => ({ agent: `Agent/${i}`, device: 'mobile' as const, source: 'test' }));

describe('the shipped traffic agents', () => {
  const agents = readTrafficAgents();

  it('holds at least 1,000 distinct agents, each with a source', () => {
    expect(new Set(agents.map((a) => a.agent)).size).toBe(agents.length);
    expect(agents.length).toBeGreaterThanOrEqual(MIN_AGENTS);
    expect(agents.every((a) => a.source.length > 0)).toBe(true);
  });

  it('spans mobile, tablet and desktop, many Android models and in-app browsers', () => {
    for (const device of ['mobile', 'tablet', 'desktop']) expect(agents.some((a) => a.device === device)).toBe(true);
    const models = new Set(agents.flatMap((a) => /Android [\d.]+; ([^;)]+)/.exec(a.agent)?.[1] ?? []));
    expect(models.size).toBeGreaterThanOrEqual(50);
    const inApp = agents.filter((a) => /FBAN|FBAV|Instagram|MicroMessenger|TikTok|musical_ly/.test(a.agent));
    expect(inApp.length).toBeGreaterThan(10);
  });
});

describe('traffic agent checks', () => {
  it('keeps the first entry of each agent', () => {
    const list = distinctAgents([
      { agent: 'A', device: 'mobile', source: 'one' },
      { agent: 'A', device: 'desktop', source: 'two' },
      { agent: 'B', device: 'tablet', source: 'three' },
    ]);
    expect(list).toEqual([
      { agent: 'A', device: 'mobile', source: 'one' },
      { agent: 'B', device: 'tablet', source: 'three' },
    ]);
  });

  it('refuses a list with fewer than 1,000 agents', () => {
    expect(() => validTrafficAgents(agentsOf(MIN_AGENTS - 1))).toThrow(/fewer than/);
    expect(validTrafficAgents(agentsOf(MIN_AGENTS))).toHaveLength(MIN_AGENTS);
  });

  it('refuses a repeated agent', () => {
    expect(() =>
      validTrafficAgents([...agentsOf(MIN_AGENTS), { agent: 'Agent/0', device: 'mobile', source: 'x' }]),
    ).toThrow(/repeated/);
  });

  it('refuses an entry without a source', () => {
    const list = agentsOf(MIN_AGENTS).map((a, i) => (i === 5 ? { ...a, source: '' } : a));
    expect(() => validTrafficAgents(list)).toThrow();
  });

  it('tells tablets by their tokens, else by the mobile flag', () => {
    expect(deviceOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', true)).toBe('tablet');
    expect(deviceOf('Mozilla/5.0 (Linux; Android 13; SM-X700)', true)).toBe('tablet');
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile', true)).toBe('mobile');
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64)', false)).toBe('desktop');
  });
});

describe('the mix ratio row', () => {
  const measured = (requestsPerSecond: number) => ({
    load: { tool: 'wrk' as const, requestsPerSecond, requests: 1, p50: 1, p99: 1, non2xx3xx: 0, socketErrors: 0 },
  });

  it('is within budget at 0.8 of the single agent and over it below', () => {
    expect(mixRatioRow('r', measured(1000), measured(800)).budget?.ok).toBe(true);
    expect(mixRatioRow('r', measured(1000), measured(799)).budget).toEqual({ limit: '≥ 0.8', ok: false });
  });
});

describe('the page keys row', () => {
  const counted = (pageKeys?: number) => ({
    load: {
      tool: 'wrk' as const,
      requestsPerSecond: 1,
      requests: 10,
      p50: 1,
      p99: 1,
      non2xx3xx: 0,
      socketErrors: 0,
      kept: { hit: 4, miss: 6 },
      ...(pageKeys === undefined ? {} : { pageKeys }),
    },
  });

  it('prints how many distinct page keys the pages named', () => {
    expect(pageKeysRow('k', counted(6)).value).toBe('6 distinct page keys');
  });

  it('says the build sends none when no page named its key', () => {
    expect(pageKeysRow('k', counted(0)).value).toBe('not sent by this build');
  });

  it('says nothing was counted without wrk', () => {
    const { kept: _, ...load } = counted(0).load;
    expect(pageKeysRow('k', { load }).value).toMatch(/not counted/);
  });
});

describe('the mix wrk script', () => {
  it('refuses empty lists', () => {
    expect(() => mixScript({ agents: [], languages: ['en'], tracking: ['fbclid'] })).toThrow();
  });

  it('sends every agent and language in turn, every other request with a tracking value no other has', async () => {
    needWrk();
    const seen: { url: string; agent: string; language: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({
        url: req.url ?? '',
        agent: Buffer.from(req.headers['user-agent'] ?? '', 'latin1').toString('utf8'),
        language: String(req.headers['accept-language']),
      });
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'lander-mix-'));
    try {
      const agents = ['Agent/1', 'Agent/2', 'Agënt/3'];
      const path = join(dir, 'mix.lua');
      writeFileSync(path, mixScript({ agents, languages: ['en', 'de'], tracking: ['fbclid', 'gclid'], path: '/p' }));
      const { port } = server.address() as AddressInfo;
      const r = await load({
        url: `http://127.0.0.1:${port}`,
        duration: 1,
        connections: 2,
        threads: 2,
        wrkScript: path,
      });
      expect(r.statusClasses?.['2xx']).toBe(r.requests);
      expect(new Set(seen.map((s) => s.agent))).toEqual(new Set(agents));
      expect(new Set(seen.map((s) => s.language))).toEqual(new Set(['en', 'de']));
      const tracked = seen.filter((s) => s.url !== '/p');
      expect(tracked.every((s) => /^\/p\?(fbclid|gclid)=t\d+r\d+$/.test(s.url))).toBe(true);
      expect(new Set(tracked.map((s) => s.url)).size).toBe(tracked.length);
      expect(new Set(tracked.map((s) => s.url.split('=')[0]))).toEqual(new Set(['/p?fbclid', '/p?gclid']));
      expect(Math.abs(tracked.length * 2 - seen.length)).toBeLessThanOrEqual(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});
