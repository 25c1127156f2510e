/**
 * The worker's start-up (docs/benchmarks.md#start-up), measured as Cloudflare measures it at deploy:
 * `wrangler check startup` loads the production bundle (`wrangler deploy --dry-run --outfile`, minified,
 * the bundle a deploy uploads) in a local workerd and writes a CPU profile of its start-up phase:
 * evaluating every module's top level. Offline. Three runs; the median of their active (non-idle)
 * time is held to the budget, and the costliest source files over the three runs are named, placed by
 * the source map of the same build in dist/worker (production-build.ts makes both alike).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, TOOL_ENV } from '../../scripts/lib/run.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { type CpuProfile, type Locate, sourceMapLocator } from './cpu-profile.ts';

/** The start-up's active CPU time, at most (milliseconds). */
export const STARTUP_BUDGET_MS = 100;
const RUNS = 3;
const TOP = 6;

/** A start-up profile: the fields of a `.cpuprofile` read here. */
export interface StartupProfile extends CpuProfile {
  startTime: number;
  endTime: number;
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

export interface StartupSummary {
  /** Sampled time not idle, garbage collection included (milliseconds). */
  activeMs: number;
  gcMs: number;
  /** Self time per source (a package under node_modules, else the file), most first. */
  sources: { label: string; ms: number }[];
}

/** The package a bundled source belongs to (the innermost node_modules), or the file's path inside the repository. */
export function sourceLabel(file: string): string {
  const inPackage = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inPackage?.[1]) return inPackage[1];
  const inRepo = /(?:^|\/)((?:worker|shared|client)\/.*)$/.exec(file);
  return inRepo?.[1] ?? basename(file);
}

/**
 * Time per sample as DevTools counts it (a sample lasts until the next one; the last until the
 * profile's end), summed: not idle, garbage collection, and by source.
 */
export function summarizeStartup(profile: StartupProfile, locate?: Locate): StartupSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) {
    at += delta;
    times.push(at);
  }
  const bySource = new Map<string, number>();
  let activeMs = 0;
  let gcMs = 0;
  samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame;
    const ms = ((times[i + 1] ?? profile.endTime) - (times[i] ?? profile.endTime)) / 1000;
    if (!frame || frame.functionName === '(idle)' || ms <= 0) return;
    activeMs += ms;
    if (frame.functionName === '(garbage collector)') gcMs += ms;
    const place = frame.url && frame.lineNumber >= 0 ? locate?.(frame) : undefined;
    const label = place
      ? sourceLabel(place.file)
      : frame.url
        ? `${basename(frame.url)} (no source)`
        : frame.functionName;
    bySource.set(label, (bySource.get(label) ?? 0) + ms);
  });
  const sources = [...bySource].map(([label, ms]) => ({ label, ms })).sort((a, b) => b.ms - a.ms);
  return { activeMs, gcMs, sources };
}

const run = promisify(execFile);
const tool = (name: string, args: string[]) =>
  run(join(ROOT, 'node_modules/.bin', name), args, { cwd: ROOT, env: TOOL_ENV, maxBuffer: 2 ** 24 });

export const startup: BenchSection = {
  title: 'Start-up (wrangler check startup)',
  async run() {
    const dir = join(ROOT, 'dist/bench/startup');
    mkdirSync(dir, { recursive: true });
    const bundle = join(dir, 'worker.bundle');
    await tool('wrangler', ['deploy', '--dry-run', '--outfile', bundle, '--minify', '--env', 'production']);
    const locate = sourceMapLocator(join(ROOT, 'dist/worker'));
    const summaries: StartupSummary[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const outfile = join(dir, `startup-${i + 1}.cpuprofile`);
      await tool('wrangler', ['check', 'startup', '--worker', bundle, '--outfile', outfile]);
      summaries.push(summarizeStartup(JSON.parse(readFileSync(outfile, 'utf8')) as StartupProfile, locate));
    }
    const sorted = [...summaries].sort((a, b) => a.activeMs - b.activeMs);
    const median = sorted[Math.floor(RUNS / 2)] ?? { activeMs: Number.NaN, gcMs: 0, sources: [] };
    const total = new Map<string, number>();
    for (const { sources } of summaries)
      for (const { label, ms } of sources) total.set(label, (total.get(label) ?? 0) + ms);
    const busy = [...total.values()].reduce((sum, ms) => sum + ms, 0);
    const top = [...total].sort((a, b) => b[1] - a[1]).slice(0, TOP);
    return [
      {
        name: `Start-up CPU, median of ${RUNS} profiles`,
        value: `${median.activeMs.toFixed(1)} ms (${median.gcMs.toFixed(1)} ms garbage collection); runs ${summaries.map((s) => s.activeMs.toFixed(1)).join(', ')} ms`,
        budget: { limit: `≤ ${STARTUP_BUDGET_MS} ms`, ok: median.activeMs <= STARTUP_BUDGET_MS },
      },
      ...top.map(
        ([label, ms]): BenchRow => ({
          name: `  ${label}`,
          value: `${((ms / busy) * 100).toFixed(0)} % of the start-up (${(ms / RUNS).toFixed(1)} ms a run)`,
        }),
      ),
    ];
  },
};
