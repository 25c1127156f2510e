/**
 * The crowd mode of the lab (tools/bench/crowd.ts, docs/benchmarks.md), small: 60 devices behind one
 * address tap at 10 a second and install, against the production bundle on the bench's workerd with
 * the Rate Limiting bindings bound, and none is refused or credited with another device's tap; the
 * same server refuses one client past its budget, so the crowd's 0 is the limiter's doing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTool } from '../../scripts/lib/run.ts';
import { CLIENT_POLICY } from '../../worker/attribution/rate-limit.ts';
import { BENCH_SECRETS } from '../bench/attribution.ts';
import { crowdRows, runCrowd } from '../bench/crowd.ts';
import { type Served, serveProduction } from '../bench/serve.ts';

const dirs: string[] = [];
let server: Served;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lander-crowd-test-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  const workerDir = tempDir();
  captureTool('wrangler', ['deploy', '--dry-run', '--outdir', workerDir, '--minify', '--env', 'production']);
  server = await serveProduction({ workerDir, outDir: tempDir(), vars: BENCH_SECRETS, rateLimits: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a crowd behind one address, in the lab', () => {
  it('60 devices at 10 taps a second, then their installs: 0 refused, 0 false matches', async () => {
    const result = await runCrowd(server.url, 60, 10);
    expect(result).toMatchObject({ devices: 60, refusedTaps: 0, refusedInstalls: 0, failed: {}, falseMatches: 0 });
    // Every device with a carrier (four in five) is credited with its own tap.
    expect(result.matched).toBeGreaterThanOrEqual(48);
    expect(crowdRows(result, 10).every((row) => row.budget?.ok ?? true)).toBe(true);
  }, 60_000);

  it('refuses one client past its budget, on the same server', async () => {
    // The limiter counts per clock minute: start with time enough left in this one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const statuses: number[] = [];
    for (let i = 0; i <= CLIENT_POLICY.limit; i++) {
      const res = await fetch(`${server.url}/api/a/click`, {
        method: 'POST',
        body: JSON.stringify({ visitorId: 'one-client-in-the-lab' }),
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': '127.67.0.1' },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, CLIENT_POLICY.limit).every((status) => status === 400)).toBe(true);
    expect(statuses[CLIENT_POLICY.limit]).toBe(429);
  }, 30_000);
});
