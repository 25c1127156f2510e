/** `npm run export` (scripts/export.ts, docs/webhooks.md#exports) out of a local store of its own. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { destinationOf, exportOptions, firstDay } from '../../scripts/export.ts';
import { EXPORTS, withBindings } from '../../scripts/lib/bindings.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

function run(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/export.ts', ...args], { encoding: 'utf8', env: TOOL_ENV });
}

/** Every file under `root`, relative, sorted. */
function filesUnder(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

describe('npm run export', { timeout: 60_000 }, () => {
  it('reads --since as days back or a first day, and refuses anything else', () => {
    expect(firstDay('7d', Date.parse('2026-11-26T10:00:00Z'))).toBe('2026-11-20');
    expect(firstDay('2026-11-01')).toBe('2026-11-01');
    expect(firstDay('last week')).toBeUndefined();
    const refused = run('--since', 'yesterday');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--since "yesterday" is neither');
    expect(run().stderr).toContain('usage: npm run export');
  });

  it('copies the parts since the first day into DIR, in their layout', async () => {
    const persistTo = join(dir, 'state');
    const line = '{"id":"msg_a","type":"install","timestamp":"t","data":{}}\n';
    await withBindings({ local: true, persistTo }, EXPORTS, async ({ EXPORTS: bucket }) => {
      await bucket.put(`exports/install/date=${day(1)}/part-0.ndjson.gz`, gzipSync(line));
      await bucket.put(`exports/click/date=${day(2)}/part-0.ndjson.gz`, gzipSync(line));
      await bucket.put(`exports/click/date=${day(2)}/part-1.ndjson.gz`, gzipSync(line));
      await bucket.put(`exports/link/date=${day(9)}/part-0.ndjson.gz`, gzipSync(line));
    });
    const out = join(dir, 'out');
    const result = run('--since', '7d', '--persist-to', persistTo, '--out', out);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Copied 3 export parts');
    expect(filesUnder(out)).toEqual([
      `click/date=${day(2)}/part-0.ndjson.gz`,
      `click/date=${day(2)}/part-1.ndjson.gz`,
      `install/date=${day(1)}/part-0.ndjson.gz`,
    ]);
    expect(gunzipSync(readFileSync(join(out, `install/date=${day(1)}/part-0.ndjson.gz`))).toString()).toBe(line);
  });

  it.each([
    [['--since', '9999-12-31'], '--since: must not be after'],
    [['--since', '9999d'], '--since: must not be before 2000-01-01'],
    [['--since', '2026-02-30'], 'is neither a number of days'],
    [['--since', '7d', '--env', 'staging'], '--env: development or production; got "staging"'],
    [['--since', '7d', '--env', 'production', '--persist-to', 'x'], '--env and --persist-to exclude each other'],
    [['--since', '7d', '--out', ''], '--out: a folder to write into'],
    [['--since', '7d', 'stray'], "Unexpected argument 'stray'; usage: npm run export"],
    [['--until', '2026-11-01'], "Unknown option '--until'; usage: npm run export"],
    [['--since'], "Option '--since <value>' argument missing; usage: npm run export"],
  ])('refuses %j in one line, exit 2, before opening any store', (args, message) => {
    const refused = run(...args);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^npm run export: [^\n]+\n$/);
    expect(refused.stderr).toContain(message);
  });

  it('reads any --since or --env as options or one refusal naming the flag', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(exportOptions({ since: '7d', out: 'x' }, now)).toMatchObject({
      from: '2026-11-19',
      out: join(process.cwd(), 'x'),
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat(99_999).map((days) => `${days}d`),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        ),
        fc.option(fc.oneof(fc.string(), fc.constantFrom('production', 'development')), { nil: undefined }),
        (since, env) => {
          const options = exportOptions({ since, ...(env === undefined ? {} : { env }) }, now);
          if ('error' in options) expect(options.error).toMatch(/^(--since|--env|usage)/);
          else expect(options.from >= '2000-01-01' && options.from <= '2026-11-27').toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("copies an app's exports with --app, from its apps/<id>/ keys, and refuses an app id that is none", () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(exportOptions({ since: '7d', out: 'x' }, now)).toMatchObject({ root: 'exports/' });
    expect(exportOptions({ since: '7d', out: 'x', app: 'notes' }, now)).toMatchObject({ root: 'apps/notes/exports/' });
    expect(exportOptions({ since: '7d', app: 'Notes!' }, now)).toEqual({
      error: '--app: "Notes!" is no app id (a lowercase letter, then 1–31 of a-z, 0-9, -)',
    });
    const out = join(dir, 'app');
    const key = 'apps/notes/exports/install/date=2026-11-01/part-0.ndjson.gz';
    expect(destinationOf(out, key, 'apps/notes/exports/')).toBe(join(out, 'install/date=2026-11-01/part-0.ndjson.gz'));
    expect(destinationOf(out, key)).toBeUndefined();
  });

  it('keeps every destination inside --out', () => {
    const out = join(dir, 'inside');
    expect(destinationOf(out, 'exports/install/date=2026-11-01/part-0.ndjson.gz')).toBe(
      join(out, 'install/date=2026-11-01/part-0.ndjson.gz'),
    );
    for (const key of [
      'exports/install/date=2026-11-01/../../../escaped',
      'exports/../../etc/passwd',
      'exports//etc/passwd',
      'exports/install/date=2026-11-01/..\\..\\..\\escaped',
      'exports/install/..',
      'exports/',
    ])
      expect(destinationOf(out, key), key).toBeUndefined();
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('..', '.', '', 'a', '/', '\\', 'date=2026-11-01'), { maxLength: 8 }),
        (parts) => {
          const file = destinationOf(out, `exports/${parts.join('/')}`);
          if (file !== undefined) expect(file.startsWith(`${out}/`)).toBe(true);
        },
      ),
    );
  });

  it('skips, and names, an object whose key would be written outside --out', async () => {
    const persistTo = join(dir, 'hostile-state');
    const line = '{"id":"msg_b","type":"click","timestamp":"t","data":{}}\n';
    const escaping = `exports/install/date=${day(1)}/../../../escaped.ndjson.gz`;
    const backslashed = `exports/click/date=${day(1)}/..\\..\\..\\back.ndjson.gz`;
    await withBindings({ local: true, persistTo }, EXPORTS, async ({ EXPORTS: bucket }) => {
      await bucket.put(escaping, gzipSync(line));
      await bucket.put(backslashed, gzipSync(line));
      await bucket.put(`exports/click/date=${day(1)}/part-0.ndjson.gz`, gzipSync(line));
    });
    const out = join(dir, 'hostile-out');
    const result = run('--since', '7d', '--persist-to', persistTo, '--out', out);
    expect(result.status, result.stderr).toBe(0);
    // Written as read, the first key would land in `dir` itself, beside `hostile-out`.
    expect(existsSync(join(dir, 'escaped.ndjson.gz'))).toBe(false);
    expect(filesUnder(out)).toEqual([`click/date=${day(1)}/part-0.ndjson.gz`]);
    expect(result.stderr).toContain(`skipped ${JSON.stringify(escaping)}: it would be written outside ${out}`);
    expect(result.stderr).toContain(`skipped ${JSON.stringify(backslashed)}`);
    expect(result.stdout).toContain('Copied 1 export parts');
    expect(result.stdout).toContain('skipped 2 outside it');
  });
});
