/**
 * "CPU profile" (docs/benchmarks.md): where the `lander` isolate spends its CPU under load. workerd's
 * own sampling profiler, through its inspector, runs during a wrk load of `/` for the single agent,
 * then of the traffic mix (traffic-mix.ts), then of a page no visitor asked for before (a render:
 * `/?channel=<new each time>`), then `/api/trace` and `POST /api/a/click` (the calls with required
 * work of their own, http-targets.ts), each after a 2 s warm-up without it; the samples are
 * summed into self time per function (cpu-profile.ts), named and placed through the bundle's source
 * map. The profiler costs the isolate time of its own, so the loads' requests/s here are not the
 * figures of the other sections. A workerd that refuses the profiler gets its reason printed.
 */
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchContext, BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { type CpuProfile, type Locate, selfTimes, sourceMapLocator } from './cpu-profile.ts';
import { targets } from './http-targets.ts';
import { Inspector } from './inspector.ts';
import { describeLoad, type LoadOptions, type LoadResult, load } from './load.ts';
import { readTrafficAgents } from './traffic-agents.ts';
import { LANGUAGES, mixLoad, singleAgentLoad, wrkScriptFile } from './traffic-mix.ts';
import { UNIQUE, uniqueScript } from './wrk-unique.ts';

/** Functions printed per load. */
export const TOP = 15;
/** Microseconds between samples: fine enough for a request of a few hundred microseconds. */
const SAMPLING_INTERVAL_US = 100;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Profiles the isolate during one load; a refusal of the inspector or the profiler is returned as text. */
async function profiled(
  inspectorUrl: string,
  options: LoadOptions,
): Promise<{ load: LoadResult; profile: CpuProfile } | string> {
  let inspector: Inspector;
  try {
    inspector = await Inspector.forWorker(inspectorUrl, 'lander');
  } catch (error) {
    return `no inspector session: ${message(error)}`;
  }
  try {
    try {
      await inspector.send('Profiler.enable');
      await inspector.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
      await inspector.send('Profiler.start');
    } catch (error) {
      return `workerd refused the profiler: ${message(error)}`;
    }
    const result = await load(options);
    try {
      const { profile } = await inspector.send<{ profile: CpuProfile }>('Profiler.stop');
      await inspector.send('Profiler.disable');
      return { load: result, profile };
    } catch (error) {
      return `workerd gave no profile: ${message(error)}`;
    }
  } finally {
    inspector.close();
  }
}

/** The load's heading row, then its top functions as `rank. share` → function. */
export function profileRows(
  name: string,
  result: { load: LoadResult; profile: CpuProfile } | string,
  locate?: Locate,
): BenchRow[] {
  if (typeof result === 'string') return [{ name, value: result }];
  const { functions, busy, idle } = selfTimes(result.profile, locate);
  const rows: BenchRow[] = [
    { name, value: `${describeLoad(result.load)}; ${busy} samples, ${idle} more idle` },
    ...functions.slice(0, TOP).map((f, i) => ({
      name: `  ${String(i + 1).padStart(2)}. ${(f.share * 100).toFixed(1).padStart(5)} %`,
      value: f.label,
    })),
  ];
  return rows;
}

async function profileLoad(
  context: BenchContext,
  name: string,
  options: LoadOptions,
  locate: Locate,
): Promise<BenchRow[]> {
  const { inspectorUrl } = context.server;
  if (inspectorUrl === undefined) return [{ name, value: 'not profiled: workerd runs without its inspector' }];
  await load({ ...options, duration: 2 }); // warm-up without the profiler: JIT, kept pages, connections
  return profileRows(name, await profiled(inspectorUrl, options), locate);
}

/** `/api/trace` and `POST /api/a/click`: what their required work costs the isolate (their Durable Objects run in it). */
async function profileCalls(context: BenchContext, locate: Locate): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const target of targets(context).filter(({ name }) => /api\/(trace|a\/click)/.test(name))) {
    rows.push(...(await profileLoad(context, target.name, target.load, locate)));
  }
  return rows;
}

/** A page no visitor asked for before, every request: the first render of a kind (http-targets.ts). */
function missLoad(context: BenchContext): LoadOptions {
  const headers = { 'user-agent': IPHONE_UA, 'accept-language': LANGUAGES[0] ?? 'en' };
  return {
    url: context.url,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    wrkScript: wrkScriptFile('miss.lua', uniqueScript([{ path: `/?channel=${UNIQUE}`, headers }])),
  };
}

export const cpuProfile: BenchSection = {
  title: `CPU profile of the lander isolate under load (self time, top ${TOP}, share of non-idle samples)`,
  async run(context) {
    const locate = sourceMapLocator(join(ROOT, 'dist/worker'));
    const agents = readTrafficAgents();
    return [
      ...(await profileLoad(
        context,
        'GET / one iPhone agent (kept page hit)',
        singleAgentLoad(context, context.url),
        locate,
      )),
      ...(await profileLoad(context, 'GET / traffic mix', mixLoad(context, agents, context.url), locate)),
      ...(await profileLoad(context, 'GET /?channel=<new each time> (a render)', missLoad(context), locate)),
      // The calls with required work of their own, as the HTTP section measures them (http-targets.ts).
      ...(await profileCalls(context, locate)),
    ];
  },
};
