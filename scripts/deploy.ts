/**
 * `npm run deploy -- --env development|production [--dry-run]`: says which worker it deploys where,
 * then builds the client, applies the D1 migrations to the environment's database, writes the
 * build's manifest to KV, deploys the worker with wrangler, and writes `latest` (docs/builds.md).
 * Migrations and the manifest go first so the new worker finds its tables and every page of the new
 * build finds its manifest; `latest` goes last so open tabs hear of the new build only once it is
 * live. `--dry-run` stops after saying so. The environment is never implied: a deploy to the wrong
 * one is not undone by a warning.
 *
 * Production goes only where it is ready (docs/config.md#production): a deploy refuses while
 * `wrangler.toml`'s `[env.production]` still has the placeholder KV or D1 ids, or while production's
 * KV lacks a configuration with the operator's own store ids, package and download origin, naming
 * each gap; `--dry-run` names the placeholder ids without refusing.
 *
 * Where data lives and how long (docs/privacy.md): the environment's `JURISDICTION` and `RETENTION`
 * are checked first (scripts/lib/jurisdiction.ts) — the R2 bindings in the jurisdiction, every
 * retention within its bounds — and the plan printed, D1's creation command included; a deploy, dry
 * or not, refuses a broken one. `--config FILE` reads another wrangler configuration than `wrangler.toml`.
 *
 * `--local [--persist-to DIR]`: builds, applies the migrations to the local database and writes both
 * keys to the local KV store, without deploying.
 */
import { unstable_readConfig } from 'wrangler';
import { CONFIG_KEY } from '../shared/config/schema.ts';
import { productionGaps } from '../worker/config/production-ready.ts';
import { formatProblems, parseConfig } from '../worker/config/validate.ts';
import { buildEntries } from './lib/build-entries.ts';
import { cliArgs, helpIfAsked } from './lib/cli-args.ts';
import { applyMigrations } from './lib/d1.ts';
import { privacyPlan } from './lib/jurisdiction.ts';
import { kvGet, kvPut } from './lib/kv.ts';
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

const USAGE =
  'usage: npm run deploy -- --env development|production [--dry-run] [--config FILE] | --local [--persist-to DIR]';
helpIfAsked('deploy', {
  summary: 'Builds, applies the D1 migrations, writes the build manifest to KV and deploys the worker with wrangler.',
  usage: USAGE,
  flags: [
    ['--env development|production', 'where to deploy (never implied); production needs your own configuration'],
    ['--dry-run', 'say what would be deployed where, and name placeholder ids, without deploying'],
    ['--config FILE', 'the wrangler configuration to deploy (default wrangler.toml)'],
    ['--local [--persist-to DIR]', 'build and write it to the local store only'],
  ],
  example: 'npm run deploy -- --env production --dry-run',
});
const { values } = cliArgs('deploy', USAGE, {
  env: { type: 'string' },
  local: { type: 'boolean', default: false },
  'persist-to': { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  config: { type: 'string' },
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
const configFile = values.config ?? `${ROOT}wrangler.toml`;
const config = unstable_readConfig({ config: configFile, env: wranglerEnv });
const kv = config.kv_namespaces.find((namespace: { binding: string; id?: string }) => namespace.binding === 'KV');
const d1 = config.d1_databases.find((database: { binding: string }) => database.binding === 'FUNNEL_DB');
console.log(
  `Deploying worker "${config.name}" (${envName}, LANDER_ENV=${String(config.vars.LANDER_ENV)}) to Cloudflare, ` +
    `build records to KV namespace ${kv?.id ?? '(none bound)'}, ` +
    `migrations to D1 database ${d1?.database_name ?? '(none bound)'}.`,
);

// Where data lives and how long it is kept: refused when broken, even on a dry run (docs/privacy.md).
const plan = privacyPlan(config);
console.log(plan.lines.join('\n'));
if (plan.problems.length > 0) fail(`${plan.problems.join('\n')}\nNothing was deployed.`);

// The ids `wrangler.toml` ships with: all zeros, never a real namespace or database.
const isPlaceholderId = (id: string | undefined) => id === undefined || /^[0-]+$/.test(id);
const placeholders =
  envName === 'production'
    ? [
        isPlaceholderId(kv?.id) ? `KV namespace "KV" id ${kv?.id ?? '(none)'}` : '',
        isPlaceholderId(d1?.database_id) ? `D1 database "${d1?.database_name}" id ${d1?.database_id ?? '(none)'}` : '',
      ].filter(Boolean)
    : [];
if (placeholders.length > 0) {
  const list = placeholders.map((p) => `  ${p}`).join('\n');
  const what = `wrangler.toml [env.production] still has placeholder ids (docs/config.md#production):\n${list}`;
  if (values['dry-run']) console.log(`${what}\nA deploy would refuse until they are the real ones.`);
  else fail(`${what}\nPut the ids of your KV namespace and D1 database there; nothing was deployed.`);
}
if (values['dry-run']) process.exit(0);

if (envName === 'production') {
  // Production never serves the demo: its KV must hold the operator's own configuration first.
  const text = kvGet(CONFIG_KEY, { local: false, env: wranglerEnv });
  if (text === null) {
    fail('production has no configuration in KV: npm run config:push -- FILE --env production; nothing was deployed');
  }
  const result = parseConfig(text);
  const problems = result.ok
    ? productionGaps(result.config, config.vars.DOWNLOAD_ORIGIN as string | undefined)
    : result.problems;
  if (problems.length > 0) {
    fail(`production's configuration in KV is not ready; nothing was deployed.\n${formatProblems(problems)}`);
  }
}

runTool('vite', ['build']);
const { build, manifest, latest } = buildEntries();
const target = { local: false, env: wranglerEnv };
applyMigrations(target);
kvPut([manifest], target);
runTool('wrangler', ['deploy', '--config', configFile, '--env', wranglerEnv ?? '']);
kvPut([latest], target);
console.log(`Build ${build.id} is live on "${config.name}" and the latest in its KV store.`);
