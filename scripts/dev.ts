/**
 * `npm run dev`: rebuilds the client on every change (vite build --watch) and serves the worker with
 * wrangler dev, which reloads the worker on source changes. Same port rules, local KV seed (a pushed
 * configuration stays; `--reset` seeds the demo again) and D1 migrations as `npm start`.
 */

import { applyMigrations } from './lib/d1.ts';
import { runTool, startTool } from './lib/run.ts';
import { seedLocal } from './seed-local.ts';

runTool('vite', ['build', '--logLevel', 'warn']);
console.log(seedLocal({ reset: process.argv.includes('--reset') }));
applyMigrations({ local: true });
const children = [
  startTool('vite', ['build', '--watch', '--logLevel', 'warn'], { stdio: 'inherit' }),
  startTool(
    'wrangler',
    ['dev', '--port', process.env.PORT ?? '8787', '--ip', '127.0.0.1', '--local', '--live-reload'],
    {
      stdio: 'inherit',
    },
  ),
];
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(0);
  });
}
