import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../scripts/config-push.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-config-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BAD = { revision: 'bad', appData: [{ plat: 9 }], commonConfig: { tagline: 'T', description: 'D' } };

function push(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/config-push.ts', ...args], { encoding: 'utf8', env: TOOL_ENV });
}

describe('config:push', () => {
  it('finds the problems of a bad file with their JSON paths', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(BAD));
    const result = checkConfigFile(file);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toContain('$.appData[0].plat');
  });

  it('reports an unreadable file as a problem, not a crash', () => {
    const result = checkConfigFile(join(dir, 'absent.json'));
    expect(!result.ok && result.problems[0]?.message).toMatch(/cannot read/);
  });

  it('exits non-zero on a bad file, prints the path and writes nothing', () => {
    const file = join(dir, 'bad2.json');
    writeFileSync(file, JSON.stringify(BAD));
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = push(file, '--local', '--persist-to', store);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('$.appData[0].plat');
    expect(result.stderr).toContain('nothing was written');
    expect(readdirSync(store)).toEqual([]);
  });

  it('refuses a production push of a document without the operator’s own store ids and download origin, naming each', () => {
    const result = push('worker/config/demo.json', '--env', 'production');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('not ready for production; nothing was written');
    expect(result.stderr).toContain('$.appData[1].app_store_id: is the demo’s (6740858208)');
    expect(result.stderr).toContain('$.appData[0].package: is the demo’s (com.pebble.notes)');
    expect(result.stderr).toContain(
      '$.domains: no download origin of the operator’s: DOWNLOAD_ORIGIN is https://dl.lander.example',
    );
  }, 60_000);

  it('writes a valid file to the local KV, where wrangler reads it back', () => {
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = push('worker/config/demo.json', '--local', '--persist-to', store);
    expect(result.status).toBe(0);
    const read = spawnSync(
      'node_modules/.bin/wrangler',
      ['kv', 'key', 'get', 'config', '--binding', 'KV', '--local', '--persist-to', store],
      { encoding: 'utf8', env: TOOL_ENV },
    );
    expect(JSON.parse(read.stdout).revision).toBe('demo-2026-11-18');
  }, 60_000);
});
