/**
 * `npm run bench:lab`: the bench's exploratory part, run on demand beside the budget part
 * (`npm run bench`; docs/benchmarks.md): the initial JS by package, a traffic mix of real agents, a CPU
 * profile of the worker isolate, peers, the build calls and the main thread, on the same
 * `workerd serve` and with the same flags. The text goes to dist/bench/lab-report.md.
 *
 *   npm run bench:lab -- --load [--soak SECONDS]   # load modes, then a memory soak (default 300 s):
 *                                                  # dist/bench/load-report.md
 *   npm run bench:lab -- --soak SECONDS            # only the soak
 *   npm run bench:lab -- --crowd                   # a crowd behind one address, the rate limits bound:
 *                                                  # dist/bench/crowd-report.md; exits 1 past its bars
 */
import { crowd } from './bench/crowd.ts';
import { benchFlags, runBench, selected } from './bench/run-bench.ts';
import { labSections, soakSeconds } from './bench/sections.ts';

const flags = benchFlags();
const load = flags.load || soakSeconds(flags) > 0;
if (flags.crowd) {
  await runBench([crowd()], flags, [{ path: 'dist/bench/crowd-report.md' }], { rateLimits: true });
} else {
  await runBench(selected(labSections(flags), flags.only), flags, [
    { path: load ? 'dist/bench/load-report.md' : 'dist/bench/lab-report.md' },
  ]);
}
