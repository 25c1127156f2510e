import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kvGet } from '../../scripts/lib/kv.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { CONFIG_KEY } from '../../shared/config/schema.ts';
import { DEMO } from '../fixtures/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-seed-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: TOOL_ENV });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const revisionIn = (store: string) => JSON.parse(kvGet(CONFIG_KEY, { local: true, persistTo: store }) ?? '{}').revision;

describe('the local seed of npm start', () => {
  it('seeds the demo into an empty store, keeps a pushed configuration, and seeds the demo again on --reset', () => {
    const store = join(dir, 'store');
    expect(run('scripts/seed-local.ts', '--persist-to', store)).toContain(
      `Configuration: the demo (revision ${DEMO.revision}), seeded now into the empty local store.`,
    );

    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify({ ...DEMO, revision: 'mine-1' }));
    run('scripts/config-push.ts', file, '--local', '--persist-to', store);
    const second = run('scripts/seed-local.ts', '--persist-to', store);
    expect(second).toContain('the one already in the local store (revision mine-1, pushed from');
    expect(second).toContain(file);
    expect(revisionIn(store)).toBe('mine-1');

    expect(run('scripts/seed-local.ts', '--persist-to', store, '--reset')).toContain('seeded now as asked (--reset)');
    expect(revisionIn(store)).toBe(DEMO.revision);
  }, 120_000);
});
