/**
 * `npm run deploy -- --env development|production [--dry-run]`: says which worker it deploys where,
 * then builds the client, applies the D1 migrations to the environment's database, writes the
 * build's manifest to KV, deploys the worker with wrangler, and writes `latest` (docs/builds.md).
 * Migrations and the manifest go first so the new worker finds its tables and every page of the new
 * build finds its manifest; `latest` goes last so open tabs hear of the new build only once it is
 * live. `--dry-run` stops after saying so. The environment is never implied: a deploy to the wrong
 * one is not undone by a warning.
 *
 * `--local [--persist-to DIR]`: builds, applies the migrations to the local database and writes both
 * keys to the local KV store, without deploying.
 */
import { parseArgs } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { buildEntries } from './lib/build-entries.ts';
import { applyMigrations } from './lib/d1.ts';
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
  applyMigrations(target);
  kvPut([manifest, latest], target);
  console.log(`Build ${build.id} is the latest in the local KV store.`);
  process.exit(0);
}

const envName = values.env ?? fail('say where: --env development or --env production (or --local)');
if (!isEnvironment(envName)) fail(`unknown environment ${JSON.stringify(envName)}: development or production`);
const wranglerEnv = ENVIRONMENTS[envName];
const config = unstable_readConfig({ config: `${ROOT}wrangler.toml`, env: wranglerEnv });
const kv = config.kv_namespaces.find((namespace: { binding: string; id?: string }) => namespace.binding === 'KV');
const d1 = config.d1_databases.find((database: { binding: string }) => database.binding === 'FUNNEL_DB');
console.log(
  `Deploying worker "${config.name}" (${envName}, LANDER_ENV=${String(config.vars.LANDER_ENV)}) to Cloudflare, ` +
    `build records to KV namespace ${kv?.id ?? '(none bound)'}, ` +
    `migrations to D1 database ${d1?.database_name ?? '(none bound)'}.`,
);
if (values['dry-run']) process.exit(0);

runTool('vite', ['build']);
const { build, manifest, latest } = buildEntries();
const target = { local: false, env: wranglerEnv };
applyMigrations(target);
kvPut([manifest], target);
runTool('wrangler', ['deploy', '--env', wranglerEnv ?? '']);
kvPut([latest], target);
console.log(`Build ${build.id} is live on "${config.name}" and the latest in its KV store.`);
