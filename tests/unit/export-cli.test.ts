/** `npm run export` (scripts/export.ts, docs/webhooks.md#exports) out of a local store of its own. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { firstDay } from '../../scripts/export.ts';
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
    expect(firstDay('7d', Date.parse('2026-11-26T10:00:00Z'))).toBe('2026-11-19');
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
});
