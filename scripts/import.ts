/**
 * `npm run import -- [--from firebase|bitly|dub|shlink|sink] FILE [--dry-run] [--overwrite]
 * [--allow-host H …] [--local | --env development|production] [--base URL] [--app ID]` brings another
 * shortener's links into Lander (docs/operators.md#bring-your-links): it reads the export (its format
 * from `--from`, else from its shape), keeps each link's slug and target, maps its parameters onto
 * campaign fields, and stores it through the links API of a running worker (as `npm run link --
 * --short` does: scripts/lib/admin-api.ts). Every link it could not carry is reported with the reason;
 * a re-run stores nothing new. A file that is not what it claims ends it with exit 2 before any call.
 */
import { adminTarget, callAdmin } from './lib/admin-api.ts';
import { type CliHelp, cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';
import { carryAll } from './lib/link-import/carry.ts';
import { IMPORT_FORMATS, type ImportFormat } from './lib/link-import/formats.ts';
import { isImportFormat, readExport } from './lib/link-import/read-export.ts';
import { printable, readExportFile } from './lib/link-import/read-file.ts';
import { importLinks, reportLines } from './lib/link-import/run.ts';

const USAGE =
  `usage: npm run import -- [--from ${IMPORT_FORMATS.join('|')}] FILE [--dry-run] [--overwrite] ` +
  '[--allow-host H …] [--local | --env development|production] [--base URL] [--app ID]';

const HELP: CliHelp = {
  summary: "Imports another shortener's links, keeping their slugs and targets, through the links API.",
  usage: USAGE,
  flags: [
    ['--from FORMAT', `the export's format: ${IMPORT_FORMATS.join(', ')} (default: the one the file looks like)`],
    ['--dry-run', 'say what would be stored, store nothing'],
    ['--overwrite', 'replace a stored link of the same slug whose campaign differs (default: report a conflict)'],
    ['--allow-host H', 'carry only targets on host H (repeatable; default any https target)'],
    ['--local', 'the dev server of npm start (the default without LANDER_URL)'],
    ['--env development|production', 'the worker at LANDER_URL (or --base), with ADMIN_TOKEN'],
    ['--base URL', "the worker's origin"],
    ['--app ID', 'the app ID of the deployment (docs/routes.md#apps): its API under /@ID/api on the shared host'],
  ],
  example: 'npm run import -- --from firebase links-example.page.link.csv --dry-run',
};

helpIfAsked('import', HELP);
const { values, positionals } = cliArgsWithFiles('import', USAGE, {
  from: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  overwrite: { type: 'boolean', default: false },
  'allow-host': { type: 'string', multiple: true, default: [] },
  local: { type: 'boolean', default: false },
  env: { type: 'string', default: '' },
  base: { type: 'string' },
  app: { type: 'string' },
});

if (positionals.length !== 1) refuse('import', `give one export FILE; ${USAGE}`);
const [file = ''] = positionals;
if (values.from !== undefined && !isImportFormat(values.from)) {
  refuse('import', `unknown format ${JSON.stringify(values.from)}: ${IMPORT_FORMATS.join(', ')}`);
}
const from = values.from as ImportFormat | undefined;

const opened = readExportFile(file);
if (!opened.ok) refuse('import', `${file}: ${opened.reason}; nothing was stored`);
const read = readExport(opened.text, from);
// The reason may quote the file (JSON's error does): never its escape sequences on the terminal.
if (!read.ok) refuse('import', `${file}: ${printable(read.reason)}; nothing was stored`);
const carried = carryAll(read.links, { allowHosts: values['allow-host'], now: Date.now() });

const found = adminTarget(values, process.env);
if (!found.ok) refuse('import', found.reason);
const { target } = found;

try {
  const outcomes = await importLinks((path, init) => callAdmin(target, path, init), carried, {
    dryRun: values['dry-run'],
    overwrite: values.overwrite,
  });
  console.log(`${file}: ${read.format}${values['dry-run'] ? ' (dry run: nothing stored)' : ''}`);
  for (const line of reportLines(outcomes)) console.log(line);
  // A link the worker refused (or failed) is not carried: exit 1 says so to a script.
  process.exit(outcomes.some((outcome) => outcome.kind === 'refused') ? 1 : 0);
} catch (error) {
  refuse('import', error instanceof Error ? error.message : String(error));
}
