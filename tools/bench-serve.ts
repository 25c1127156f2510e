/**
 * `PORT=N npm run bench:serve`: the bench's own server (tools/bench/serve.ts: the production build on
 * `workerd serve`, no wrangler proxy) on 127.0.0.1:N with the bench's demo configuration — the local
 * KV seed and the bench's secrets — until SIGINT or SIGTERM, so outside load tools measure the same
 * server `npm run bench` does (docs/benchmarks.md). Builds first unless --no-build. Flags: --env NAME
 * (default production), --worker-dir and --out-dir (default dist/worker and dist/bench).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/lib/run.ts';
import { localSeed } from '../scripts/seed-local.ts';
import { BENCH_SECRETS } from './bench/attribution.ts';
import { buildProduction } from './bench/production-build.ts';
import { serveProduction } from './bench/serve.ts';

const { values } = parseArgs({
  options: {
    env: { type: 'string', default: 'production' },
    'no-build': { type: 'boolean', default: false },
    'worker-dir': { type: 'string', default: 'dist/worker' },
    'out-dir': { type: 'string', default: 'dist/bench' },
  },
});

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error('bench:serve needs PORT, a port number from 1 to 65535: PORT=8787 npm run bench:serve');
  process.exit(2);
}
if (!values['no-build']) buildProduction(values.env, values['worker-dir']);

const server = await serveProduction({
  env: values.env,
  kv: localSeed(),
  vars: BENCH_SECRETS,
  port,
  workerDir: join(ROOT, values['worker-dir']),
  outDir: join(ROOT, values['out-dir']),
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.stop().then(() => process.exit(0)));
}
console.log(`Serving the production build on workerd ${server.workerdVersion} at ${server.url} (Ctrl-C stops it)`);
console.log(`The peers' plain Hono + React page: ${server.peerUrl}/`);
console.log(
  `The floor: ${server.floorUrl}/ (its first request, with x-floor-capture: ${server.url}/, takes that kept page)`,
);
console.log(
  `The floor of a first visitor: ${server.floorMissUrl}/?any=new-each-time (a lookup in the location cache, the page, kept there)`,
);
console.log(`A second isolate sharing the location cache (send the first one's Host): ${server.secondUrl}/`);
