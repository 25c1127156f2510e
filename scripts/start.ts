/**
 * `npm start`: builds the client, seeds the local KV (the build always; the demo configuration only
 * into an empty store, or on --reset — a pushed configuration stays), says which configuration is
 * in use, applies the D1 migrations to the local database and serves the worker on workerd
 * (wrangler dev, local mode, with its queue) at http://localhost:$PORT (default 8787).
 * Flags: --no-build (reuse dist/), --reset (the demo configuration again), --persist-to DIR
 * (separate local state, used by tests).
 */
import { parseArgs } from 'node:util';
import { applyMigrations } from './lib/d1.ts';
import { runTool, startTool } from './lib/run.ts';
import { startBanner } from './lib/start-banner.ts';
import { seedLocal } from './seed-local.ts';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    reset: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  },
});
const port = process.env.PORT ?? '8787';
const persistTo = values['persist-to'];

if (!values['no-build']) runTool('vite', ['build', '--logLevel', 'warn']);
console.log(seedLocal({ persistTo, reset: values.reset }));
applyMigrations({ local: true, persistTo });

const args = [
  'dev',
  '--port',
  port,
  '--ip',
  process.env.HOST ?? '127.0.0.1',
  '--local',
  '--show-interactive-dev-session=false',
];
if (persistTo) args.push('--persist-to', persistTo);
const server = startTool('wrangler', args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
// Printed before wrangler's own output, so it is the first thing to read (with HOST, a QR code for a phone).
console.log(startBanner(process.env));
server.on('exit', (code) => process.exit(code ?? 0));
