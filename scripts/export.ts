/**
 * `npm run export -- --since 7d [--out DIR] [--app ID] [--env production | --persist-to DIR]` copies
 * the daily exports (docs/webhooks.md#exports) of one app (`default` unless `--app` names another,
 * docs/routes.md#apps) out of R2 into DIR (default `exports`), keeping their layout
 * (`<kind>/date=YYYY-MM-DD/part-N.ndjson.gz`), so DuckDB, BigQuery or Athena read the folder as is.
 * `--since` is a number of days (`7d`: the 7 days ending today, both included) or a first day (`2026-11-01`), within
 * the days any range may name (shared/day-range.ts). Without `--env` it reads the local store
 * `npm start` writes. A bad flag is one line, exit 2; an object whose key would be written outside DIR
 * is skipped and named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_ID_PATTERN, appObjectPrefix, DEFAULT_APP } from '../shared/apps.ts';
import { dayRefusal, isDay, lastDays } from '../shared/day-range.ts';
import { utcDay } from '../shared/time-zone.ts';
import { EXPORT_KINDS } from '../shared/webhooks.ts';
import { type CliHelp, cliArgs, helpIfAsked, refuse } from './lib/cli-args.ts';

const USAGE =
  'usage: npm run export -- --since 7d|YYYY-MM-DD [--out DIR] [--app ID] [--env development|production | --persist-to DIR]';

const HELP: CliHelp = {
  summary: 'Copies the daily exports (NDJSON, gzip) out of R2 into a folder, keeping their layout.',
  usage: USAGE,
  flags: [
    ['--since 7d|YYYY-MM-DD', 'the N days ending today, both included, or from that day on'],
    ['--out DIR', 'where to write (default exports)'],
    ['--app ID', "the app whose exports to copy (docs/routes.md#apps); default's without it"],
    ['--env development|production', "Cloudflare's R2 of that environment (wrangler must be logged in)"],
    ['--persist-to DIR', 'the local store in DIR instead of the one npm start writes'],
  ],
  example: 'npm run export -- --since 7d --out exports',
};

const OPTIONS = {
  since: { type: 'string' },
  out: { type: 'string', default: 'exports' },
  app: { type: 'string' },
  env: { type: 'string' },
  'persist-to': { type: 'string' },
} as const;

/**
 * The first day `since` names, `YYYY-MM-DD`: `Nd` is the N days ending today (UTC, the days the exports
 * are filed under), both included, as in `npm run stats`; undefined when unreadable.
 */
export function firstDay(since: string, now = Date.now()): string | undefined {
  const days = /^(\d{1,4})d$/.exec(since);
  if (days) return Number(days[1]) < 1 ? undefined : lastDays(Number(days[1]), utcDay(now)).from;
  return isDay(since) ? since : undefined;
}

/** What `npm run export` was asked, read from its flags. */
export interface ExportOptions {
  from: string;
  out: string;
  /** Where the app's exports start in R2: `exports/`, or `apps/<id>/exports/`. */
  root: string;
  env?: string;
  persistTo?: string;
}

/**
 * The options of `values` at `now` (ms), or the one line saying what to change: `--since` within the
 * days a range may name (from 2000-01-01 to tomorrow), `--env` a known environment, `--out` a folder.
 */
export function exportOptions(
  values: {
    since?: string | undefined;
    out?: string | undefined;
    app?: string | undefined;
    env?: string | undefined;
    'persist-to'?: string | undefined;
  },
  now = Date.now(),
): ExportOptions | { error: string } {
  const { since, out = 'exports', app = DEFAULT_APP, env, 'persist-to': persistTo } = values;
  if (!since) return { error: USAGE };
  const from = firstDay(since, now);
  if (!from)
    return { error: `--since ${JSON.stringify(since)} is neither a number of days (7d) nor a day (YYYY-MM-DD)` };
  const refused = dayRefusal('--since', from, now);
  if (refused) return { error: `${refused} (${since} is ${from})` };
  if (app !== DEFAULT_APP && !APP_ID_PATTERN.test(app)) {
    return { error: `--app: ${JSON.stringify(app)} is no app id (a lowercase letter, then 1–31 of a-z, 0-9, -)` };
  }
  if (env !== undefined && env !== 'development' && env !== 'production') {
    return { error: `--env: development or production; got ${JSON.stringify(env)}` };
  }
  if (env !== undefined && persistTo !== undefined) return { error: '--env and --persist-to exclude each other' };
  if (out === '' || out.includes('\0')) return { error: '--out: a folder to write into' };
  return {
    from,
    out: resolve(out),
    root: `${appObjectPrefix(app)}exports/`,
    ...(env === undefined ? {} : { env }),
    ...(persistTo === undefined ? {} : { persistTo }),
  };
}

/**
 * Where the object `key` (`<root><kind>/date=…/part-N.ndjson.gz`, `root` `exports/` or an app's) is
 * written under `out` (an absolute folder), or undefined when it would land outside it: a `..`
 * segment, an absolute path, or a backslash (a separator on Windows, and never in a key the worker writes).
 */
export function destinationOf(out: string, key: string, root = 'exports/'): string | undefined {
  if (!key.startsWith(root)) return undefined;
  const path = key.slice(root.length);
  if (path.includes('\\') || path.includes('\0') || isAbsolute(path)) return undefined;
  const file = resolve(out, path);
  const inside = relative(out, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return file;
}

async function main(): Promise<void> {
  helpIfAsked('export', HELP);
  const { values } = cliArgs('export', USAGE, OPTIONS);
  const options = exportOptions(values);
  if ('error' in options) refuse('export', options.error);
  const { from, out, root, env, persistTo } = options;
  // Loaded once the flags are read: wrangler takes seconds to load, and a refusal needs none of it.
  const { EXPORTS, withBindings } = await import('./lib/bindings.ts');
  let files = 0;
  let bytes = 0;
  let skipped = 0;
  await withBindings({ local: !env, env, persistTo }, EXPORTS, async ({ EXPORTS: bucket }) => {
    for (const kind of EXPORT_KINDS) {
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix: `${root}${kind}/`, ...(cursor ? { cursor } : {}) });
        for (const object of page.objects) {
          const day = /\/date=(\d{4}-\d{2}-\d{2})\//.exec(object.key)?.[1];
          if (!day || day < from) continue;
          const file = destinationOf(out, object.key, root);
          if (!file) {
            // Written as read, a key with `../` would put a file anywhere the operator can write.
            console.error(`npm run export: skipped ${JSON.stringify(object.key)}: it would be written outside ${out}`);
            skipped += 1;
            continue;
          }
          const body = await bucket.get(object.key);
          if (!body) continue;
          mkdirSync(dirname(file), { recursive: true });
          const data = new Uint8Array(await body.arrayBuffer());
          writeFileSync(file, data);
          files += 1;
          bytes += data.length;
        }
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
    }
  });
  const where = env ? `R2 (${env})` : 'the local R2';
  const left = skipped > 0 ? `; skipped ${skipped} outside it` : '';
  console.log(`Copied ${files} export parts (${bytes} bytes) since ${from} from ${where} to ${out}${left}`);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    // A store that cannot be opened or a folder that cannot be written: one line, not a stack trace.
    const said = error instanceof Error ? error.message : String(error);
    console.error(`npm run export: ${said.replace(/\s+/g, ' ')}`);
    process.exit(2);
  }
}
