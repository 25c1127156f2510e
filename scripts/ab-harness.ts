/**
 * `npm run ab:harness -- [--experiments N] [--seed N]` measures the sequential test that judges a
 * link's variants (docs/smart-links.md#the-harness): N simulated experiments with no difference
 * between control and variant, each looked at every 100 visitors up to 20,000, and the share that
 * ever named a winner — the false-winner rate, which must stay at most 5 %; the same for the naive
 * z-test looked at as often; and the power, the share that names a true +20 % lift. Seeded, so the
 * figures are the same on every run; exit 1 when the false-winner rate is above 5 %.
 */
import { naiveLook } from '../worker/variants/sequential-test.ts';
import { type Outcome, simulate } from './lib/ab-simulation.ts';
import { type CliHelp, cliArgs, helpIfAsked, refuse } from './lib/cli-args.ts';

const NAME = 'ab:harness';
const USAGE = 'usage: npm run ab:harness -- [--experiments N] [--seed N]';
const HELP: CliHelp = {
  summary: "Measures the variants' sequential test: its false-winner rate at every look, and its power.",
  usage: USAGE,
  flags: [
    ['--experiments N', 'simulated experiments per row (default 1000)'],
    ['--seed N', 'the first seed of the pseudo-random draws (default 1)'],
  ],
  example: 'npm run ab:harness -- --experiments 1000',
};

helpIfAsked(NAME, HELP);
const { values } = cliArgs(NAME, USAGE, {
  experiments: { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
});
const experiments = Number(values.experiments);
const seed = Number(values.seed);
if (!Number.isInteger(experiments) || experiments < 1 || experiments > 100_000)
  refuse(NAME, `--experiments is a whole number from 1 to 100000; ${USAGE}`);
if (!Number.isInteger(seed) || seed < 0) refuse(NAME, `--seed is a whole number from 0; ${USAGE}`);

/** The experiment's shape: 20,000 visitors split evenly, a look every 100 of them (200 looks). */
const SHAPE = { experiments, visitors: 20_000, every: 100 };
/** Install rates of the control, from a rare outcome to a common one. */
const RATES = [0.02, 0.05, 0.1, 0.3];

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
const started = performance.now();
const rows: string[][] = [];
let worst = 0;
for (const [index, rate] of RATES.entries()) {
  const base = seed + index * 3;
  const none = simulate({ ...SHAPE, rate, ratio: 1, seed: base });
  const naive = simulate({ ...SHAPE, rate, ratio: 1, seed: base, test: naiveLook });
  const lift: Outcome = simulate({ ...SHAPE, rate, ratio: 1.2, seed: base + 1 });
  worst = Math.max(worst, none.rate);
  rows.push([
    percent(rate),
    percent(none.rate),
    percent(naive.rate),
    percent(lift.namedVariant / experiments),
    Number.isNaN(lift.meanVisitorsToVariant) ? '-' : Math.round(lift.meanVisitorsToVariant).toLocaleString('en'),
  ]);
}

const header = [
  'install rate',
  'false winners (mSPRT)',
  'false winners (naive z)',
  'power at +20 %',
  'visitors to name it',
];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
const line = (cells: string[]): string =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
console.log(
  `${experiments} experiments per row, ${SHAPE.visitors.toLocaleString('en')} visitors each split 50/50, ` +
    `a look every ${SHAPE.every} (${SHAPE.visitors / SHAPE.every} looks), α = 0.05, seed ${seed}\n`,
);
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const row of rows) console.log(line(row));
console.log(
  `\nfalse-winner rate: at most ${percent(worst)} (must be ≤ 5 %) — ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
if (worst > 0.05) process.exit(1);
