/**
 * `npm run export -- --since 7d [--out DIR] [--env production | --persist-to DIR]` copies the daily
 * exports (docs/webhooks.md#exports) out of R2 into DIR (default `exports`), keeping their layout
 * (`<kind>/date=YYYY-MM-DD/part-N.ndjson.gz`), so DuckDB, BigQuery or Athena read the folder as is.
 * `--since` is a number of days (`7d`: the last 7 days and today) or a first day (`2026-11-01`).
 * Without `--env` it reads the local store `npm start` writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXPORT_KINDS } from '../shared/webhooks.ts';
import { EXPORTS, withBindings } from './lib/bindings.ts';

const USAGE = 'usage: npm run export -- --since 7d|YYYY-MM-DD [--out DIR] [--env production | --persist-to DIR]';

function fail(message: string): never {
  console.error(`npm run export: ${message}`);
  process.exit(2);
}

/** The first day `since` names, `YYYY-MM-DD`, counted back from `now`; undefined when unreadable. */
export function firstDay(since: string, now = Date.now()): string | undefined {
  const days = /^(\d{1,4})d$/.exec(since);
  if (days) return new Date(now - Number(days[1]) * 86_400_000).toISOString().slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(since) && !Number.isNaN(Date.parse(since))) return since;
  return undefined;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      since: { type: 'string' },
      out: { type: 'string', default: 'exports' },
      env: { type: 'string' },
      'persist-to': { type: 'string' },
    },
  });
  if (positionals.length > 0 || !values.since) fail(USAGE);
  const from = firstDay(values.since);
  if (!from) fail(`--since ${JSON.stringify(values.since)} is neither a number of days (7d) nor a day (YYYY-MM-DD)`);
  const out = resolve(values.out);
  let files = 0;
  let bytes = 0;
  await withBindings(
    { local: !values.env, env: values.env, persistTo: values['persist-to'] },
    EXPORTS,
    async ({ EXPORTS: bucket }) => {
      for (const kind of EXPORT_KINDS) {
        let cursor: string | undefined;
        do {
          const page = await bucket.list({ prefix: `exports/${kind}/`, ...(cursor ? { cursor } : {}) });
          for (const object of page.objects) {
            const day = /\/date=(\d{4}-\d{2}-\d{2})\//.exec(object.key)?.[1];
            if (!day || day < from) continue;
            const body = await bucket.get(object.key);
            if (!body) continue;
            const file = join(out, object.key.slice('exports/'.length));
            mkdirSync(dirname(file), { recursive: true });
            const data = new Uint8Array(await body.arrayBuffer());
            writeFileSync(file, data);
            files += 1;
            bytes += data.length;
          }
          cursor = page.truncated ? page.cursor : undefined;
        } while (cursor);
      }
    },
  );
  const where = values.env ? `R2 (${values.env})` : 'the local R2';
  console.log(`Copied ${files} export parts (${bytes} bytes) since ${from} from ${where} to ${out}`);
}

if (import.meta.main) await main();
