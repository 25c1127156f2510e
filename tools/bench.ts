/**
 * `npm run bench`: builds for production, serves the build with `workerd serve` and a generated config
 * (tools/bench/serve.ts), and prints every figure in one run, with the machine it ran on; the same
 * text goes to dist/bench/report.md. Flags: --duration SECONDS (default 10), --connections N
 * (default 32), --threads N (wrk threads, default 1), --env NAME (wrangler.toml environment whose vars
 * the worker gets, default production; '' for the top level), --no-build (reuse dist/); --load runs the
 * load modes and a memory soak instead (--soak SECONDS, default 300; --soak alone runs only the soak).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/lib/run.ts';
import { localSeed } from '../scripts/seed-local.ts';
import { apkStamping } from './bench/apk-stamping.ts';
import { attribution, BENCH_SECRETS } from './bench/attribution.ts';
import { builds } from './bench/builds.ts';
import { composition } from './bench/composition.ts';
import type { BenchContext, BenchSection } from './bench/context.ts';
import { detect } from './bench/detect.ts';
import { funnel } from './bench/funnel.ts';
import { http } from './bench/http.ts';
import { identity } from './bench/identity.ts';
import { lighthouseSection } from './bench/lighthouse.ts';
import { loadTool } from './bench/load.ts';
import { loadModes } from './bench/load-modes.ts';
import { describeMachine, machine } from './bench/machine.ts';
import { mainThread } from './bench/main-thread.ts';
import { peers } from './bench/peers.ts';
import { buildProduction } from './bench/production-build.ts';
import { cpuProfile } from './bench/profile.ts';
import { qr } from './bench/qr.ts';
import { serveProduction } from './bench/serve.ts';
import { sizes } from './bench/sizes.ts';
import { soak } from './bench/soak.ts';
import { trafficMix } from './bench/traffic-mix.ts';
import { webhooks } from './bench/webhooks.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    threads: { type: 'string', default: '1' },
    env: { type: 'string', default: 'production' },
    'no-build': { type: 'boolean', default: false },
    // Comma-separated words; runs only the sections whose title contains one (case-insensitive).
    only: { type: 'string' },
    load: { type: 'boolean', default: false },
    soak: { type: 'string' },
  },
});

const only = values.only?.toLowerCase().split(',').filter(Boolean);
// --load and --soak run the load modes and the memory soak instead of the figures (docs/benchmarks.md).
const soakSeconds = Number(values.soak ?? (values.load ? 300 : 0));
const sections: BenchSection[] = (
  values.load || soakSeconds > 0
    ? [...(values.load ? [loadModes] : []), ...(soakSeconds > 0 ? [soak(soakSeconds)] : [])]
    : [
        sizes,
        composition,
        identity,
        detect,
        qr,
        http,
        trafficMix,
        cpuProfile,
        peers,
        funnel,
        attribution,
        builds,
        apkStamping,
        webhooks,
        lighthouseSection,
        mainThread,
      ]
).filter((section) => !only || only.some((word) => section.title.toLowerCase().includes(word)));
const host = machine();

if (!values['no-build']) buildProduction(values.env);

// The inspector is open so the sections can read an isolate's V8 heap after a load; nothing attaches
// during one (open, it cost about 2 % of `/`'s requests/s: docs/benchmarks.md).
const server = await serveProduction({ env: values.env, kv: localSeed(), vars: BENCH_SECRETS, inspectorPort: 0 });
// Interrupted (Ctrl-C, a CI timeout): stop workerd before leaving, so no server outlives the run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.stop().then(() => process.exit(130)));
}
const context: BenchContext = {
  url: server.url,
  server,
  duration: Number(values.duration),
  connections: Number(values.connections),
  threads: Number(values.threads),
};
const tool = loadTool();
const lines: string[] = [
  `Lander benchmark · ${new Date().toISOString()}`,
  `Server: workerd ${server.workerdVersion}, \`workerd serve\` with the generated ${server.configPath.replace(ROOT, '')}`,
  `        (front worker: build files from a disk service, else the production worker; vars of [env${values.env ? `.${values.env}` : ''}]; in-memory KV)`,
  `Machine: ${describeMachine(host)}`,
  `Load: ${tool.tool} ${tool.version}, loopback, ${context.connections} connections, ${context.threads} thread(s), ${context.duration} s per measurement after 2 s warm-up`,
];
const print = (line: string): void => {
  console.log(line);
  lines.push(line);
};
for (const line of lines) console.log(line);

let failed = false;
try {
  for (const section of sections) {
    print(`\n## ${section.title}`);
    for (const row of await section.run(context)) {
      const budget = row.budget ? `  [${row.budget.ok ? 'ok' : 'OVER'} ${row.budget.limit}]` : '';
      if (row.budget && !row.budget.ok) failed = true;
      print(`${row.name.padEnd(48)} ${row.value}${budget}`);
    }
  }
} catch (error) {
  console.error(`Benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error(`workerd's last lines:\n${server.logs()}`);
  process.exitCode = 1;
} finally {
  await server.stop();
}
if (failed) print('\nSome figures are over budget.');
const report = values.load || soakSeconds > 0 ? 'load-report.md' : 'report.md';
writeFileSync(join(ROOT, 'dist/bench', report), `\`\`\`\n${lines.join('\n')}\n\`\`\`\n`);
