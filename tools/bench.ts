/**
 * `npm run bench`: the budget part of the bench (docs/benchmarks.md). Builds for production, serves the
 * build with `workerd serve` and prints every budgeted figure in one run (tools/bench/sections.ts),
 * with the machine it ran on. The text goes to dist/bench/report.md and, for a whole run (no
 * `--only`), to docs/generated/benchmarks.md. Flags: --duration SECONDS (default 10), --connections N
 * (default 32), --threads N (wrk threads, default 1), --env NAME (wrangler.toml environment whose
 * vars the worker gets, default production; '' for the top level), --no-build (reuse dist/), --only
 * WORD,… (the sections whose title has a word). The exploratory part is `npm run bench:lab`;
 * `--load` and `--soak` still work here and run the lab's load modes and soak.
 */
import { benchFlags, runBench, selected } from './bench/run-bench.ts';
import { BUDGET_SECTIONS, labSections, soakSeconds } from './bench/sections.ts';

const flags = benchFlags();
if (flags.load || soakSeconds(flags) > 0) {
  console.log('Load modes and the soak are part of the lab: running `npm run bench:lab` with these flags.');
  await runBench(selected(labSections(flags), flags.only), flags, [{ path: 'dist/bench/load-report.md' }]);
} else {
  const generated = {
    path: 'docs/generated/benchmarks.md',
    preface:
      '# Benchmark figures (generated)\n\nWritten by `npm run bench` (tools/bench.ts); do not edit. What each figure means and\nthe budgets: [benchmarks.md](../benchmarks.md).',
  };
  await runBench(selected(BUDGET_SECTIONS, flags.only), flags, [
    { path: 'dist/bench/report.md' },
    ...(flags.only ? [] : [generated]),
  ]);
}
