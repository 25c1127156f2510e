/** `npm run apk:upload` (scripts/apk-upload.ts, docs/apk-stamping.md) into a local store of its own. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateReserved, reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { withBindings } from '../../scripts/lib/bindings.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { PARENTS_KEY } from '../../worker/apk/parents.ts';
import { craftedApk } from '../fixtures/apk.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-apk-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI on `bytes` saved as `name`, into a fresh local store; returns the result and the store. */
function upload(bytes: Uint8Array, name: string, ...args: string[]) {
  const folder = mkdtempSync(join(dir, 'run-'));
  writeFileSync(join(folder, name), bytes);
  const persistTo = join(folder, 'state');
  const result = spawnSync(
    process.execPath,
    ['scripts/apk-upload.ts', join(folder, name), '--local', '--persist-to', persistTo, ...args],
    { encoding: 'utf8', env: TOOL_ENV },
  );
  return { ...result, persistTo };
}

/** What the local store holds after an upload: the object's size and metadata, and the KV record. */
async function stored(persistTo: string, key: string) {
  return withBindings({ local: true, persistTo }, async (bindings) => {
    const bucket = bindings.APK_PARENTS as unknown as R2Bucket;
    const object = await bucket.head(key);
    const record = await bindings.KV.get(PARENTS_KEY, 'text');
    return {
      object: object && { size: object.size, meta: object.customMetadata },
      record: record && JSON.parse(record),
    };
  });
}

// Each upload starts wrangler's platform proxy (seconds), past the unit project's 5 s default on a
// busy machine.
describe('apk:upload', { timeout: 30_000 }, () => {
  it('stores the parent with its size, SHA-256, version and reserved range, and records it for the page', async () => {
    const parent = reserveApk(craftedApk());
    const run = upload(parent, 'notes-2.4.0.apk', '--app', 'com.pebble.notes', '--version', '2.4.0');
    expect(run.status, run.stderr).toBe(0);
    const sha256 = createHash('sha256').update(parent).digest('hex');
    const range = locateReserved(parent);
    const { object, record } = await stored(run.persistTo, 'notes-2.4.0.apk');
    expect(object).toEqual({
      size: parent.length,
      meta: {
        app: 'com.pebble.notes',
        size: String(parent.length),
        sha256,
        version: '2.4.0',
        reservedOffset: String(range.offset),
        reservedLength: '1024',
      },
    });
    expect(record).toEqual({
      'com.pebble.notes': { file: 'notes-2.4.0.apk', size: parent.length, sha256, version: '2.4.0' },
    });
  });

  it('keeps the other apps’ parents in the record', async () => {
    const first = upload(reserveApk(craftedApk()), 'notes.apk', '--app', 'com.pebble.notes', '--version', '1');
    const second = spawnSync(
      process.execPath,
      [
        'scripts/apk-upload.ts',
        join(first.persistTo, '..', 'notes.apk'),
        '--name',
        'other.apk',
        '--app',
        'com.other.app',
        '--version',
        '2',
        '--local',
        '--persist-to',
        first.persistTo,
      ],
      { encoding: 'utf8', env: TOOL_ENV },
    );
    expect(second.status, second.stderr).toBe(0);
    const { record } = await stored(first.persistTo, 'other.apk');
    expect(Object.keys(record).sort()).toEqual(['com.other.app', 'com.pebble.notes']);
    expect(record['com.other.app'].file).toBe('other.apk');
  });

  it('refuses an APK that is not reserved with exit 2 and writes nothing', async () => {
    const run = upload(craftedApk(), 'plain.apk', '--app', 'com.pebble.notes', '--version', '1');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('not-reserved');
    expect(await stored(run.persistTo, 'plain.apk')).toEqual({ object: null, record: null });
  });

  it('refuses a stamped copy: its reserved value is not blank', () => {
    const parent = reserveApk(craftedApk());
    parent[locateReserved(parent).offset] = 5;
    const run = upload(parent, 'stamped.apk', '--app', 'com.pebble.notes', '--version', '1');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('already-stamped');
  });

  it('refuses a file name that cannot be a download’s', () => {
    const run = upload(reserveApk(craftedApk()), 'notes v2.apk', '--app', 'com.pebble.notes', '--version', '1');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--name');
  });

  it('asks for the package and the version', () => {
    const run = upload(reserveApk(craftedApk()), 'notes.apk');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage');
  });
});
