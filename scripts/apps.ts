/**
 * `npm run apps -- add ID --name NAME [--host HOST …] | list`, with `--local [--persist-to DIR]` or
 * `--env development|production`: the deployment's app registry (docs/routes.md#apps), the KV key
 * `apps`. `add` adds an app, or changes the name and hosts of one already there; `list` prints them.
 * A registry that would not be valid is refused with each problem's path, exit 2, and nothing is
 * written.
 */
import {
  APPS_KEY,
  type AppEntry,
  type AppsRegistry,
  DEFAULT_APP,
  parseRegistry,
  type RegistryProblem,
  validateRegistry,
} from '../shared/apps.ts';
import { type CliHelp, cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';
import { type KvTarget, kvGet, kvPut } from './lib/kv.ts';

const NAME = 'apps';
const USAGE =
  'usage: npm run apps -- add ID --name NAME [--host HOST …] | list; with --local [--persist-to DIR] | --env development|production';
const HELP: CliHelp = {
  summary: "Adds an app to the deployment's registry (docs/routes.md#apps), or lists the apps.",
  usage: USAGE,
  flags: [
    ['add ID', 'adds app ID, or changes its name and hosts (ID: a lowercase letter, then 1–31 of a-z, 0-9, -)'],
    ['--name NAME', 'the name the console shows'],
    ['--host HOST', "a host that serves this app's pages (repeat for more); none: only /@ID/ on the shared host"],
    ['list', 'prints the apps, their names and hosts'],
    ['--local [--persist-to DIR]', 'the local store npm start reads'],
    ['--env development|production', "Cloudflare's KV of that environment (wrangler must be logged in)"],
  ],
  example: 'npm run apps -- add notes --name "Notes" --host go.notes.example --env production',
};

/** The registry with `entry` added, or in place of the app with its id; the problems when it would be invalid. */
export function withApp(
  current: AppsRegistry | null,
  entry: AppEntry,
): { ok: true; registry: AppsRegistry } | { ok: false; problems: RegistryProblem[] } {
  const apps = [...(current?.apps ?? [])];
  const at = apps.findIndex((app) => app.id === entry.id);
  if (at === -1) apps.push(entry);
  else apps[at] = entry;
  const result = validateRegistry({ apps });
  if (!result.ok) return result;
  // Once an app has hosts of its own, a host no app lists is not found: the deployment's own hosts
  // must be the default app's, or every page there would answer 404.
  const hosted = result.registry.apps.some((app) => app.hosts.length > 0);
  const defaultHosts = result.registry.apps.find((app) => app.id === DEFAULT_APP)?.hosts.length ?? 0;
  if (hosted && defaultHosts === 0) {
    return {
      ok: false,
      problems: [
        {
          path: '$.apps',
          message: `an app lists hosts but "${DEFAULT_APP}" lists none: every other host would answer 404; first run npm run apps -- add ${DEFAULT_APP} --name NAME --host <this deployment's host>`,
        },
      ],
    };
  }
  return result;
}

/** The apps as `list` prints them, one a line. */
export function appLines(registry: AppsRegistry | null): string[] {
  if (!registry) return [`${DEFAULT_APP}  (no registry: the one app, on every host)`];
  return registry.apps.map(
    (app) => `${app.id}  ${app.name}  ${app.hosts.length ? app.hosts.join(', ') : `(/@${app.id}/ only)`}`,
  );
}

function main(): void {
  helpIfAsked(NAME, HELP);
  const { values, positionals } = cliArgsWithFiles(NAME, USAGE, {
    name: { type: 'string' },
    host: { type: 'string', multiple: true, default: [] },
    env: { type: 'string', default: '' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  });
  const [command, id, ...rest] = positionals;
  if (command !== 'add' && command !== 'list') refuse(NAME, USAGE);
  if (values.env !== '' && values.env !== 'development' && values.env !== 'production') {
    refuse(NAME, `--env: development or production; got ${JSON.stringify(values.env)}`);
  }
  if (values.local === (values.env !== ''))
    refuse(NAME, `say where: --local or --env development|production; ${USAGE}`);
  const target: KvTarget = { local: values.local, env: values.env || undefined, persistTo: values['persist-to'] };
  const text = kvGet(APPS_KEY, target);
  const stored = text === null ? null : parseRegistry(text);
  if (stored && !stored.ok) {
    const problems = stored.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    refuse(NAME, `the stored registry is not valid (${problems}); fix it with wrangler kv key put ${APPS_KEY}`);
  }
  const current = stored?.ok ? stored.registry : null;
  if (command === 'list') {
    if (id !== undefined) refuse(NAME, USAGE);
    console.log(appLines(current).join('\n'));
    return;
  }
  if (id === undefined || rest.length > 0) refuse(NAME, `add takes one app ID; ${USAGE}`);
  if (values.name === undefined) refuse(NAME, `add ${id}: give its --name`);
  const result = withApp(current, { id, name: values.name, hosts: values.host });
  if (!result.ok) {
    const problems = result.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    refuse(NAME, `add ${id}: ${problems}; nothing was written`);
  }
  kvPut([{ key: APPS_KEY, value: JSON.stringify(result.registry) }], target);
  const where = values.local ? 'the local KV' : `KV (${values.env})`;
  console.log(`Wrote the registry (${result.registry.apps.length} apps) to ${where} under "${APPS_KEY}".`);
}

if (import.meta.main) main();
