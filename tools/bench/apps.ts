/**
 * The kept page with many apps (docs/benchmarks.md#apps): `/` for one iPhone, its CPU per request
 * with 50 apps in the registry ÷ with one (docs/routes.md#apps), budget ≤ 1.02. Each app lists a
 * host, the default app the bench server's own, so every request resolves its app through the host
 * map. The registry is swapped through the KV service's control socket and each measurement waits
 * until the worker reads the new one (the isolate keeps a registry for `CONFIG_CACHE_SECONDS`);
 * rounds alternate one then fifty and fifty then one, and the median round's ratio is reported.
 */
import { localSeed } from '../../scripts/seed-local.ts';
import { APPS_KEY, type AppsRegistry, DEFAULT_APP } from '../../shared/apps.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { budgetRow } from './http-targets.ts';
import { type Measured, measure } from './measure.ts';
import { singleAgentLoad } from './traffic-mix.ts';

const ROUNDS = 5;
/** The budget: 50 apps cost the kept page at most this many times one app's CPU. */
export const APPS_BUDGET = 1.02;
/** How long the worker may keep the previous registry: production's `CONFIG_CACHE_SECONDS` and a margin. */
const SWAP_WAIT_MS = 40_000;

/** A registry of `count` apps: the default on `host`, the others each on a host of their own. */
export function benchRegistry(count: number, host: string): AppsRegistry {
  const others = Array.from({ length: count - 1 }, (_, index) => ({
    id: `app-${index + 1}`,
    name: `Bench app ${index + 1}`,
    hosts: [`app-${index + 1}.bench.example`],
  }));
  return { apps: [{ id: DEFAULT_APP, name: 'Bench', hosts: [host] }, ...others] };
}

/** Replaces the store with the bench's seed and `registry`, then waits until the worker serves it. */
async function swapRegistry(kvControlUrl: string, url: string, registry: AppsRegistry): Promise<void> {
  const entries = [
    ...localSeed().filter((entry) => entry.key !== APPS_KEY),
    { key: APPS_KEY, value: JSON.stringify(registry) },
  ];
  const put = await fetch(`${kvControlUrl}/entries`, { method: 'PUT', body: JSON.stringify(entries) });
  if (!put.ok) throw new Error(`The KV service refused the entries: ${put.status} ${await put.text()}`);
  // The last app answers under its prefix on the default app's host only once the worker has this registry.
  const last = registry.apps.at(-1)?.id ?? DEFAULT_APP;
  const wanted = last === DEFAULT_APP ? 404 : 200;
  const probe = `${url}/@${last === DEFAULT_APP ? 'app-49' : last}/api/health`;
  const until = Date.now() + SWAP_WAIT_MS;
  while (Date.now() < until) {
    if ((await fetch(probe)).status === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The worker did not take the registry of ${registry.apps.length} apps within ${SWAP_WAIT_MS} ms`);
}

export const apps: BenchSection = {
  title: 'Apps: the kept page with 50 apps ÷ one',
  async run(context) {
    const { url, server } = context;
    const host = new URL(url).host;
    const at = (): Promise<Measured> => measure({ ...server, inspectorUrl: undefined }, singleAgentLoad(context, url));
    const rounds: { one: Measured; fifty: Measured; ratio: number }[] = [];
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        // One then fifty, then fifty then one: a machine that slows down during the run favours neither.
        const measureWith = async (count: number) => {
          await swapRegistry(server.kvControlUrl, url, benchRegistry(count, host));
          return at();
        };
        const [first, second] = round % 2 === 0 ? [1, 50] : [50, 1];
        const a = await measureWith(first);
        const b = await measureWith(second);
        const [one, fifty] = first === 1 ? [a, b] : [b, a];
        const ratio =
          one.cpuMs && fifty.cpuMs
            ? fifty.cpuMs / one.cpuMs
            : one.load.requestsPerSecond / fifty.load.requestsPerSecond;
        rounds.push({ one, fifty, ratio });
      }
    } finally {
      // The sections after this one get the bench's own seed again.
      await fetch(`${server.kvControlUrl}/entries`, { method: 'PUT', body: JSON.stringify(localSeed()) });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((ROUNDS - 1) / 2)];
    const cpu = (m: Measured | undefined) =>
      m?.cpuMs === undefined ? 'not measured' : `${m.cpuMs.toFixed(3)} ms CPU/request`;
    const rows: BenchRow[] = [
      { name: 'GET / kept page, one app in the registry', value: cpu(median?.one) },
      { name: 'GET / kept page, 50 apps in the registry', value: cpu(median?.fifty) },
      budgetRow(
        `Kept page CPU, 50 apps ÷ one (median of ${ROUNDS} rounds: ${rounds.map((r) => r.ratio.toFixed(3)).join(', ')})`,
        median?.ratio,
        '≤',
        APPS_BUDGET,
      ),
    ];
    return rows;
  },
};
