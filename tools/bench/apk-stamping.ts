/**
 * Stamped APK downloads (docs/apk-stamping.md, docs/benchmarks.md): a 50 MB parent in R2, fetched
 * whole through Lander's stamping route and through a plain pass-through of the same object, on the
 * same workerd — throughput and workerd's CPU time per download — and workerd's resident memory
 * while 1, 4 and 16 stamped downloads run at once. Miniflare runs the worker: its R2 lives inside
 * workerd, and the one entry hop it adds is the same for both routes.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import { locateReserved, reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { ROOT } from '../../scripts/lib/run.ts';
import { toBase64Url } from '../../shared/base64url.ts';
import { craftedApk, filled } from '../../tests/fixtures/apk.ts';
import { parentMetadata } from '../../worker/apk/parents.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { cpuSeconds, residentBytes } from './machine.ts';

const SIZE = 50 * 1024 * 1024;
const FILE = 'bench-parent.apk';
const ROUNDS = 6;
const CONCURRENCY = [1, 4, 16];
/** Stamped ÷ plain throughput. */
export const THROUGHPUT_RATIO = 0.9;
/** Memory growth allowed from 1 to 16 concurrent downloads: a fifth of one file per download. */
const GROWTH_PER_DOWNLOAD = SIZE / 5;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A reserved parent of `SIZE` bytes: one stored entry of incompressible bytes and a v2 + v3 block. */
function parentApk(): Uint8Array {
  return reserveApk(
    craftedApk({ entries: { 'AndroidManifest.xml': 'bench', 'assets/payload.bin': filled(SIZE - 12_000, 9) } }),
  );
}

/** The workerd processes this process started (`npm run bench` runs its own beside miniflare's). */
function workerdChildren(): number[] {
  const out = spawnSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' }).stdout;
  return out.split('\n').flatMap((line) => {
    const [pid, ppid, comm] = line.trim().split(/\s+/);
    return Number(ppid) === process.pid && comm?.startsWith('workerd') ? [Number(pid)] : [];
  });
}

async function drain(url: string, expected = 0): Promise<number> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url}: ${response.status}`);
  const reader = response.body.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  if (expected && bytes !== expected) throw new Error(`${url}: ${bytes} bytes, not ${expected}`);
  return bytes;
}

/** `ROUNDS` whole downloads one after another: MB/s and workerd's CPU ms per download. */
async function measure(url: () => string, pid: number, size: number): Promise<{ mbps: number; cpuMs: number }> {
  await drain(url(), size);
  const cpu = cpuSeconds(pid) ?? 0;
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) bytes += await drain(url(), size);
  const seconds = (performance.now() - started) / 1000;
  return { mbps: bytes / 1024 / 1024 / seconds, cpuMs: (((cpuSeconds(pid) ?? 0) - cpu) * 1000) / ROUNDS };
}

/** The highest resident memory of `pid` while `downloads` run. */
async function peakDuring(pid: number, downloads: Promise<unknown>[]): Promise<number> {
  let peak = residentBytes(pid) ?? 0;
  let done = false;
  const all = Promise.all(downloads).finally(() => {
    done = true;
  });
  while (!done) {
    peak = Math.max(peak, residentBytes(pid) ?? 0);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  await all;
  return peak;
}

export const apkStamping: BenchSection = {
  title: 'Stamped APK downloads (50 MiB parent)',
  async run(): Promise<BenchRow[]> {
    const outDir = join(ROOT, 'dist/bench');
    mkdirSync(outDir, { recursive: true });
    const script = join(outDir, 'apk-worker.js');
    await build({
      entryPoints: [join(ROOT, 'tools/bench/workers/apk.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'import'],
      outfile: script,
      logLevel: 'warning',
    });
    const running = new Set(workerdChildren());
    const wrangler = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env: 'production' });
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        scriptPath: script,
        compatibilityDate: wrangler.compatibility_date,
        compatibilityFlags: wrangler.compatibility_flags,
        bindings: { ...wrangler.vars, LANDER_ENV: 'development' },
        r2Buckets: ['APK_PARENTS'],
      }),
    );
    try {
      const url = (await mf.ready).origin;
      const parent = parentApk();
      // Miniflare's own R2 type is a look-alike of the worker's; put is all this needs.
      const bucket = (await mf.getR2Bucket('APK_PARENTS')) as unknown as Pick<R2Bucket, 'put'>;
      const sha256 = createHash('sha256').update(parent).digest('hex');
      const metadata = parentMetadata({
        app: 'bench.app',
        size: parent.length,
        sha256,
        version: '1',
        range: locateReserved(parent),
      });
      await bucket.put(FILE, parent, { customMetadata: metadata });
      const pid = workerdChildren().find((child) => !running.has(child));
      if (pid === undefined) throw new Error('miniflare started no workerd process');
      const carrier = () => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
      const plain = await measure(() => `${url}/plain/${FILE}`, pid, parent.length);
      const stamped = await measure(() => `${url}/dl/${carrier()}/${FILE}`, pid, parent.length);
      const ratio = stamped.mbps / plain.mbps;
      const peaks: number[] = [];
      for (const n of CONCURRENCY) {
        peaks.push(
          await peakDuring(
            pid,
            Array.from({ length: n }, () => drain(`${url}/dl/${carrier()}/${FILE}`, parent.length)),
          ),
        );
      }
      const growth = (peaks.at(-1) ?? 0) - (peaks[0] ?? 0);
      const allowed = GROWTH_PER_DOWNLOAD * ((CONCURRENCY.at(-1) ?? 1) - 1);
      return [
        {
          name: 'Plain R2 pass-through',
          value: `${plain.mbps.toFixed(0)} MiB/s, workerd CPU ${plain.cpuMs.toFixed(0)} ms per download`,
        },
        {
          name: 'Stamped download',
          value: `${stamped.mbps.toFixed(0)} MiB/s, workerd CPU ${stamped.cpuMs.toFixed(0)} ms per download`,
        },
        {
          name: 'Stamped ÷ plain throughput',
          value: ratio.toFixed(2),
          budget: { limit: `≥ ${THROUGHPUT_RATIO}`, ok: ratio >= THROUGHPUT_RATIO },
        },
        {
          name: `workerd peak RSS at ${CONCURRENCY.join(' / ')} concurrent`,
          value: peaks.map(MB).join(' / '),
          budget: { limit: `growth ≤ ${MB(allowed)}`, ok: growth <= allowed },
        },
      ];
    } finally {
      await mf.dispose();
    }
  },
};
