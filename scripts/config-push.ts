/**
 * `npm run config:push -- FILE [--env production] [--local] [--persist-to DIR]`: validates a
 * configuration document (docs/config.md) and writes it to KV under the config key. On any problem
 * it prints each one with its JSON path, writes nothing and exits with status 1.
 * Without --local it writes to Cloudflare's KV of the environment (wrangler must be logged in).
 * For production it also refuses a document without the operator's own store ids, package and
 * download origin, naming each (docs/config.md#production); in every environment, a document that
 * serves mainland China without the developer, functions, privacy policy or permissions it must show
 * (docs/config.md#about-the-app).
 */
import { readFileSync } from 'node:fs';
import { unstable_readConfig } from 'wrangler';
import { APP_ID_PATTERN, configKeyOf, DEFAULT_APP } from '../shared/apps.ts';
import { type ConfigResult, formatProblems, parseConfig } from '../worker/config/validate.ts';
import { cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';
import { kvPut } from './lib/kv.ts';
import { mainlandGaps } from './lib/mainland-ready.ts';
import { productionGaps } from './lib/production-ready.ts';
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
  'usage: npm run config:push -- FILE [--app ID] --local [--persist-to DIR] | FILE [--app ID] --env development|production';

function main(): void {
  helpIfAsked('config:push', {
    summary: 'Validates a configuration document (docs/config.md) and writes it to KV under the config key.',
    usage: USAGE,
    flags: [
      ['FILE', 'the configuration document (JSON)'],
      ['--local [--persist-to DIR]', 'the local store npm start reads (kept across restarts)'],
      ['--env development|production', "Cloudflare's KV of that environment (wrangler must be logged in)"],
      ['--app ID', "the document of app ID (docs/config.md#apps): key config:ID; the default app's is config"],
    ],
    example: 'npm run config:push -- lander.config.json --local',
  });
  const { values, positionals } = cliArgsWithFiles('config:push', USAGE, {
    env: { type: 'string', default: '' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
    app: { type: 'string', default: DEFAULT_APP },
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
  if (!values.local && values.env === '') {
    // Never guessed: writing the local store for Cloudflare's (or the reverse) loses the edit silently.
    refuse(
      'config:push',
      `say where to write ${file}: --local for the local store npm start reads, or --env development|production for Cloudflare's KV (wrangler must be logged in)`,
    );
  }
  const result = checkConfigFile(file);
  if (!result.ok) {
    console.error(`${file} is not a valid configuration; nothing was written.\n${formatProblems(result.problems)}`);
    process.exit(1);
  }
  const mainland = mainlandGaps(result.config);
  if (mainland.length > 0) {
    console.error(
      `${file} serves mainland China without its disclosures; nothing was written.\n${formatProblems(mainland)}`,
    );
    process.exit(1);
  }
  if (values.env === 'production') {
    const vars = unstable_readConfig({ config: `${ROOT}wrangler.toml`, env: 'production' }).vars;
    const gaps = productionGaps(result.config, vars.DOWNLOAD_ORIGIN as string | undefined);
    if (gaps.length > 0) {
      console.error(`${file} is not ready for production; nothing was written.\n${formatProblems(gaps)}`);
      process.exit(1);
    }
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

if (import.meta.main) main();
