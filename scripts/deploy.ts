/**
 * `npm run deploy -- --env development|production [--dry-run]`: says which worker it deploys where,
 * then builds the client, writes the build's manifest to KV, deploys the worker with wrangler, and
 * writes `latest` (docs/builds.md). The manifest goes first so every page of the new build finds it;
 * `latest` goes last so open tabs hear of the new build only once it is live. `--dry-run` stops after
 * saying so. The environment is never implied: a deploy to the wrong one is not undone by a warning.
 *
 * `--local [--persist-to DIR]`: builds and writes both keys to the local KV store, without deploying.
 */
import { parseArgs } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { buildEntries } from './lib/build-entries.ts';
import { kvPut } from './lib/kv.ts';
import { ROOT, runTool } from './lib/run.ts';

/** `wrangler.toml`'s top level is development; production is its `[env.production]`. */
const ENVIRONMENTS = { development: undefined, production: 'production' } as const;
type Environment = keyof typeof ENVIRONMENTS;

function fail(message: string): never {
  console.error(`npm run deploy: ${message}`);
  process.exit(2);
}

function isEnvironment(name: string): name is Environment {
  return Object.hasOwn(ENVIRONMENTS, name);
}

const { values } = parseArgs({
  options: {
    env: { type: 'string' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
});

if (values.local) {
  console.log(`Writing the build to the local KV store${values['persist-to'] ? ` in ${values['persist-to']}` : ''}.`);
  runTool('vite', ['build']);
  const { build, manifest, latest } = buildEntries();
  const target = { local: true, persistTo: values['persist-to'] };
  kvPut([manifest, latest], target);
  console.log(`Build ${build.id} is the latest in the local KV store.`);
  process.exit(0);
}

const envName = values.env ?? fail('say where: --env development or --env production (or --local)');
if (!isEnvironment(envName)) fail(`unknown environment ${JSON.stringify(envName)}: development or production`);
const wranglerEnv = ENVIRONMENTS[envName];
const config = unstable_readConfig({ config: `${ROOT}wrangler.toml`, env: wranglerEnv });
const kv = config.kv_namespaces.find((namespace: { binding: string; id?: string }) => namespace.binding === 'KV');
console.log(
  `Deploying worker "${config.name}" (${envName}, LANDER_ENV=${String(config.vars.LANDER_ENV)}) to Cloudflare, ` +
    `build records to KV namespace ${kv?.id ?? '(none bound)'}.`,
);
if (values['dry-run']) process.exit(0);

runTool('vite', ['build']);
const { build, manifest, latest } = buildEntries();
const target = { local: false, env: wranglerEnv };
kvPut([manifest], target);
runTool('wrangler', ['deploy', '--env', wranglerEnv ?? '']);
kvPut([latest], target);
console.log(`Build ${build.id} is live on "${config.name}" and the latest in its KV store.`);
