/**
 * `npm run config:push -- FILE [--env production] [--local] [--persist-to DIR] | FILE --url ORIGIN
 * [--token T]`: validates a configuration document (docs/config.md) and writes it under the app's
 * config key. On any problem it prints each one with its JSON path, writes nothing and exits with status 1.
 * With --url it sends the document to that worker's `PUT /api/config`, which checks it again and
 * keeps it with an audit entry naming the caller (docs/config.md#through-the-admin-api); the token is
 * `--token`, else `LANDER_ADMIN_TOKEN`, else `ADMIN_TOKEN` (the admin token or an API key with `config:write`).
 * Otherwise it writes KV itself, unaudited, for a first setup: `--local`, or Cloudflare's KV of the
 * environment (wrangler must be logged in).
 * For production it also refuses a document without the operator's own store ids, package and
 * download origin, naming each (docs/config.md#production); in every environment, a document that
 * serves mainland China without the developer, functions, privacy policy or permissions it must show
 * (docs/config.md#about-the-app).
 */
import { readFileSync } from 'node:fs';
import { unstable_readConfig } from 'wrangler';
import { APP_ID_PATTERN, configKeyOf, DEFAULT_APP } from '../shared/apps.ts';
import { type Refusal, storableFrom } from '../worker/config/storable.ts';
import { type ConfigProblem, type ConfigResult, formatProblems, parseConfig } from '../worker/config/validate.ts';
import { adminTarget, callAdmin, errorOf } from './lib/admin-api.ts';
import { cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';
import { kvPut } from './lib/kv.ts';
import { ROOT } from './lib/run.ts';
import { configOrigin } from './seed-local.ts';

/** Reads and validates the file; a file that cannot be read is one problem at `$`. */
export function checkConfigFile(file: string): ConfigResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, problems: [{ path: '$', message: `cannot read ${file}: ${(error as Error).message}` }] };
  }
  return parseConfig(text);
}

const USAGE =
  'usage: npm run config:push -- FILE [--app ID] --local [--persist-to DIR] | FILE [--app ID] --env development|production | FILE [--app ID] --url ORIGIN [--token T]';

/** What a refused document is, as the first line of the refusal says it (the worker's words too). */
const REFUSED: Record<Refusal, string> = {
  invalid: 'is not a valid configuration',
  mainland: 'serves mainland China without its disclosures',
  production: 'is not ready for production',
};

/** Sends the checked document to the worker's `PUT /api/config`, which stores and audits it. */
async function pushThroughWorker(file: string, text: string, values: { url: string; token?: string; app: string }) {
  const token = values.token || process.env.LANDER_ADMIN_TOKEN || process.env.ADMIN_TOKEN;
  const found = adminTarget({ base: values.url, app: values.app, baseFlag: '--url' }, { ADMIN_TOKEN: token });
  if (!found.ok) refuse('config:push', found.reason);
  const res = await callAdmin(found.target, '/api/config', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  if (res.status === 400) {
    const body = (await res.json()) as { error: string; problems?: ConfigProblem[] };
    console.error(`${file}: the worker refused it: ${body.error}\n${formatProblems(body.problems ?? [])}`);
    process.exit(1);
  }
  if (!res.ok) {
    console.error(`${file}: not written: ${await errorOf(res)}`);
    process.exit(1);
  }
  const { changed } = (await res.json()) as { changed: boolean };
  const where = `${found.target.base}/api/config`;
  console.log(
    changed
      ? `Wrote ${file} through ${where}; the audit log has the change.`
      : `${file} is what ${where} already holds; nothing changed.`,
  );
}

async function main(): Promise<void> {
  helpIfAsked('config:push', {
    summary: 'Validates a configuration document (docs/config.md) and writes it to KV under the config key.',
    usage: USAGE,
    flags: [
      ['FILE', 'the configuration document (JSON)'],
      ['--local [--persist-to DIR]', 'the local store npm start reads (kept across restarts)'],
      ['--env development|production', "Cloudflare's KV of that environment (wrangler must be logged in)"],
      ['--url ORIGIN', 'the worker at ORIGIN, through PUT /api/config: checked there too, and audited'],
      [
        '--token T',
        'with --url: the admin token or an API key with config:write (else LANDER_ADMIN_TOKEN, ADMIN_TOKEN)',
      ],
      ['--app ID', "the document of app ID (docs/config.md#apps): key config:ID; the default app's is config"],
    ],
    example: 'npm run config:push -- lander.config.json --local',
  });
  const { values, positionals } = cliArgsWithFiles('config:push', USAGE, {
    env: { type: 'string', default: '' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
    app: { type: 'string', default: DEFAULT_APP },
    url: { type: 'string' },
    token: { type: 'string' },
  });
  if (!APP_ID_PATTERN.test(values.app)) {
    refuse(
      'config:push',
      `--app: ${JSON.stringify(values.app)} is no app id (a lowercase letter, then 1–31 of a-z, 0-9, -)`,
    );
  }
  const key = configKeyOf(values.app);
  const file = positionals[0];
  if (!file || positionals.length > 1) refuse('config:push', USAGE);
  if (values.env !== '' && values.env !== 'development' && values.env !== 'production') {
    refuse('config:push', `--env: development or production; got ${JSON.stringify(values.env)}`);
  }
  if (values.local && values.env !== '') refuse('config:push', '--local and --env exclude each other');
  if (values.url !== undefined && (values.local || values.env !== '' || values['persist-to'] !== undefined)) {
    refuse('config:push', '--url sends the document to that worker: it excludes --local, --env and --persist-to');
  }
  if (values.token !== undefined && values.url === undefined) refuse('config:push', '--token goes with --url');
  if (!values.local && values.env === '' && values.url === undefined) {
    // Never guessed: writing the local store for Cloudflare's (or the reverse) loses the edit silently.
    refuse(
      'config:push',
      `say where to write ${file}: --url ORIGIN for a running worker (audited), --local for the local store npm start reads, or --env development|production for Cloudflare's KV (wrangler must be logged in)`,
    );
  }
  const production = values.env === 'production';
  const downloadOrigin = production
    ? (unstable_readConfig({ config: `${ROOT}wrangler.toml`, env: 'production' }).vars.DOWNLOAD_ORIGIN as
        | string
        | undefined)
    : undefined;
  // The checks PUT /api/config makes too (worker/config/storable.ts); the worker knows its own environment.
  const result = storableFrom(checkConfigFile(file), { production, downloadOrigin });
  if (!result.ok) {
    console.error(`${file} ${REFUSED[result.refusal]}; nothing was written.\n${formatProblems(result.problems)}`);
    process.exit(1);
  }
  if (values.url !== undefined) {
    await pushThroughWorker(file, JSON.stringify(result.config), {
      url: values.url,
      token: values.token,
      app: values.app,
    });
    return;
  }
  // The document is stored as validated, with the schema's defaults filled in.
  // Its revision and file go beside it, so `npm start` can say which configuration it keeps.
  const entry = {
    key,
    value: JSON.stringify(result.config),
    metadata: configOrigin(result.config.revision, file),
  };
  kvPut([entry], {
    local: values.local ?? false,
    env: values.env || undefined,
    persistTo: values['persist-to'],
  });
  const where = values.local ? 'the local KV' : `KV (${values.env || 'development'})`;
  console.log(`Wrote ${file} (revision ${result.config.revision}) to ${where} under "${key}".`);
}

if (import.meta.main) await main();
