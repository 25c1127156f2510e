/**
 * `npm start`: builds the client, seeds the local KV with demo data, applies the D1 migrations to the
 * local database and serves the worker on workerd (wrangler dev, local mode, with its queue) at
 * http://localhost:$PORT (default 8787).
 * Flags: --no-build (reuse dist/), --persist-to DIR (separate local state, used by tests).
 */
import { parseArgs } from 'node:util';
import { applyMigrations } from './lib/d1.ts';
import { kvPut } from './lib/kv.ts';
import { runTool, startTool } from './lib/run.ts';
import { localSeed } from './seed-local.ts';

const { values } = parseArgs({
  options: { 'no-build': { type: 'boolean', default: false }, 'persist-to': { type: 'string' } },
});
const port = process.env.PORT ?? '8787';
const persistTo = values['persist-to'];

if (!values['no-build']) runTool('vite', ['build', '--logLevel', 'warn']);
kvPut(localSeed(), { local: true, persistTo });
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
server.on('exit', (code) => process.exit(code ?? 0));
