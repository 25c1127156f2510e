/**
 * `npm run deploy [-- --env production]`: builds the client, writes the build's manifest to KV,
 * deploys the worker with wrangler, then writes `latest` (docs/builds.md). The manifest goes first
 * so every page of the new build finds it; `latest` goes last so open tabs hear of the new build
 * only once it is live.
 * `--local [--persist-to DIR]`: builds and writes both keys to the local KV store, without deploying.
 */
import { parseArgs } from 'node:util';
import { buildEntries } from './lib/build-entries.ts';
import { kvPut } from './lib/kv.ts';
import { runTool } from './lib/run.ts';

const { values } = parseArgs({
  options: {
    env: { type: 'string', default: '' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  },
});
const target = { local: values.local, env: values.env || undefined, persistTo: values['persist-to'] };

runTool('vite', ['build']);
const { build, manifest, latest } = buildEntries();
kvPut([manifest], target);
if (!values.local) runTool('wrangler', ['deploy', '--env', values.env ?? '']);
kvPut([latest], target);
console.log(`Build ${build.id} is the latest in the ${values.local ? 'local' : 'remote'} KV store.`);
