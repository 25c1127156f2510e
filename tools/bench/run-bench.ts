/**
 * What `npm run bench` and `npm run bench:lab` share (docs/benchmarks.md): their flags, building for
 * production, serving the build with `workerd serve` and a generated config (serve.ts), running the
 * chosen sections in order and printing every figure with the machine it ran on, then writing the
 * same text to the report files the caller names.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../../scripts/lib/run.ts';
import { localSeed } from '../../scripts/seed-local.ts';
import { BENCH_SECRETS } from './attribution.ts';
import type { BenchContext, BenchSection } from './context.ts';
import { loadTool } from './load.ts';
import { describeMachine, machine } from './machine.ts';
import { buildProduction } from './production-build.ts';
import { type ServeOptions, serveProduction } from './serve.ts';

/** The flags of both commands, as parsed from the command line. */
export interface BenchFlags {
  duration: string;
  connections: string;
  threads: string;
  env: string;
  'no-build': boolean;
  /** Comma-separated words; only the sections whose title contains one (case-insensitive). */
  only?: string;
  load: boolean;
  soak?: string;
  /** `npm run bench:lab -- --crowd`: only the crowd behind one address (crowd.ts). */
  crowd: boolean;
}

/** Parses the command line of `npm run bench` and `npm run bench:lab`. */
export function benchFlags(args: string[] = process.argv.slice(2)): BenchFlags {
  return parseArgs({
    args,
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '32' },
      threads: { type: 'string', default: '1' },
      env: { type: 'string', default: 'production' },
      'no-build': { type: 'boolean', default: false },
      only: { type: 'string' },
      load: { type: 'boolean', default: false },
      soak: { type: 'string' },
      crowd: { type: 'boolean', default: false },
    },
  }).values;
}

/** The sections `--only` keeps (all without it). */
export function selected(sections: BenchSection[], only: string | undefined): BenchSection[] {
  const words = only?.toLowerCase().split(',').filter(Boolean);
  return sections.filter((section) => !words || words.some((word) => section.title.toLowerCase().includes(word)));
}

/** A file the run's text is written to, repository-relative, with an optional first paragraph. */
export interface BenchReport {
  path: string;
  preface?: string;
}

/**
 * Builds, serves (with `serve` over the defaults), runs `sections` and writes the text to `reports`;
 * a section that throws sets exit code 1 and writes nothing.
 */
export async function runBench(
  sections: BenchSection[],
  flags: BenchFlags,
  reports: BenchReport[],
  serve: ServeOptions = {},
): Promise<void> {
  const host = machine();
  if (!flags['no-build']) buildProduction(flags.env);

  // The inspector is open so the sections can read an isolate's V8 heap after a load; nothing attaches
  // during one (open, it cost about 2 % of `/`'s requests/s: docs/benchmarks.md).
  const server = await serveProduction({
    env: flags.env,
    kv: localSeed(),
    vars: BENCH_SECRETS,
    inspectorPort: 0,
    ...serve,
  });
  // Interrupted (Ctrl-C, a CI timeout): stop workerd before leaving, so no server outlives the run.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void server.stop().then(() => process.exit(130)));
  }
  const context: BenchContext = {
    url: server.url,
    server,
    duration: Number(flags.duration),
    connections: Number(flags.connections),
    threads: Number(flags.threads),
  };
  const tool = loadTool();
  const lines: string[] = [
    `Lander benchmark · ${new Date().toISOString()}`,
    `Server: workerd ${server.workerdVersion}, \`workerd serve\` with the generated ${server.configPath.replace(ROOT, '')}`,
    `        (front worker: build files from a disk service, else the production worker; vars of [env${flags.env ? `.${flags.env}` : ''}]; in-memory KV)`,
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
    return;
  } finally {
    await server.stop();
  }
  // Over budget is a finding, not a failed run: the figures are still written.
  if (failed) print('\nSome figures are over budget.');
  for (const { path, preface } of reports) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), `${preface ? `${preface}\n\n` : ''}\`\`\`\n${lines.join('\n')}\n\`\`\`\n`);
  }
}
