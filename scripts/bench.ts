/**
 * `npm run bench`: builds for production, serves the worker bundle on workerd itself and prints
 * every figure in one run. Flags: --duration SECONDS (default 10), --connections N (default 32).
 */
import { parseArgs } from 'node:util';
import type { BenchContext, BenchSection } from './bench/context.ts';
import { http } from './bench/http.ts';
import { identity } from './bench/identity.ts';
import { serveProduction } from './bench/serve.ts';
import { sizes } from './bench/sizes.ts';
import { runTool } from './lib/run.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    load: { type: 'boolean', default: false },
  },
});

const sections: BenchSection[] = [sizes, identity, http];

runTool('vite', ['build', '--logLevel', 'warn']);
runTool('wrangler', ['deploy', '--dry-run', '--outdir', 'dist/worker', '--minify', '--env', ''], {
  stdio: ['ignore', 'ignore', 'inherit'],
});

const served = await serveProduction();
const context: BenchContext = {
  url: served.url,
  duration: Number(values.duration),
  connections: Number(values.connections),
  flags: new Set(values.load ? ['load'] : []),
};

console.log(`Lander benchmark · ${new Date().toISOString()} · workerd via miniflare at ${served.url}`);
let failed = false;
try {
  for (const section of sections) {
    console.log(`\n## ${section.title}`);
    for (const row of await section.run(context)) {
      const budget = row.budget ? `  [${row.budget.ok ? 'ok' : 'OVER'} ${row.budget.limit}]` : '';
      if (row.budget && !row.budget.ok) failed = true;
      console.log(`${row.name.padEnd(44)} ${row.value}${budget}`);
    }
  }
} finally {
  await served.miniflare.dispose();
}
if (failed) console.log('\nSome figures are over budget.');
