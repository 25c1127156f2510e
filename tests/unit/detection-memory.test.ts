/**
 * The detection memo keeps no more of a request's headers than detection reads: a capped agent or
 * referrer cut from a long header must not keep the whole header alive (the memo counts ~2 kB an entry);
 * and one agent seen in several languages keeps its device for each, rather than making it again.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { deviceDetection } from '../../worker/device/device-detection.ts';
import type { AppEnv } from '../../worker/env.ts';
import { UA } from '../fixtures/agents.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('the detection memo', () => {
  it('does not keep long headers alive through the strings it stores', async () => {
    const app = new Hono<AppEnv>();
    app.use(deviceDetection());
    app.get('/', (c) => c.text(c.get('device').operatingSystem));
    const before = heapAfterGc();
    for (let i = 0; i < 150; i += 1) {
      const res = await app.request('/', {
        headers: {
          'user-agent': `${UA.androidChrome} ${i} ${'x'.repeat(100_000)}`,
          referer: `https://ref.example/${i}/${'r'.repeat(100_000)}`,
        },
      });
      expect(await res.text()).toBe('Android');
    }
    // 150 entries holding their whole headers would keep about 60 MB (two-byte strings of 100 kB each).
    expect(heapAfterGc() - before).toBeLessThan(10_000_000);
  });

  it('keeps one device per language for an agent seen in six languages in turn', async () => {
    const app = new Hono<AppEnv>();
    app.use(deviceDetection());
    const seen: object[] = [];
    app.get('/', (c) => {
      seen.push(c.get('device'));
      return c.text(c.get('device').device_locale);
    });
    const languages = ['en-US', 'de-DE', 'es-419', 'pt-BR', 'zh-CN', 'ja-JP'];
    // The same agent, a language at a time, twice round: as a popular agent comes from many countries.
    for (let round = 0; round < 2; round += 1) {
      for (const language of languages) {
        const res = await app.request('/', { headers: { 'user-agent': UA.iPhoneSafari, 'accept-language': language } });
        expect(await res.text()).toBe(language);
      }
    }
    // The second round gets the very objects of the first: none was made again.
    expect(seen.slice(6)).toEqual(seen.slice(0, 6));
    for (const [i, device] of seen.slice(6).entries()) expect(device).toBe(seen[i]);
  });
});
