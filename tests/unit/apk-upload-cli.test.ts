/** `npm run apk:upload` (scripts/apk-upload.ts, docs/apk-stamping.md) into a local store of its own. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateReserved, reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { UPLOAD, withBindings } from '../../scripts/lib/bindings.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { PARENTS_KEY } from '../../worker/apk/parents.ts';
import { aaptApk, manifestText } from '../fixtures/aapt.ts';
import { craftedApk } from '../fixtures/apk.ts';
import { manifestAxml } from '../fixtures/axml.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-apk-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A crafted signed APK whose binary manifest names this package and version (or none). */
function appApk(pkg: string, versionName?: string): Uint8Array {
  return craftedApk({ entries: { 'AndroidManifest.xml': manifestAxml({ pkg, versionName }), 'a.txt': 'hello' } });
}

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
  return withBindings({ local: true, persistTo }, UPLOAD, async (bindings) => {
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
    const parent = reserveApk(appApk('com.pebble.notes', '2.4.0'));
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
    const first = upload(
      reserveApk(appApk('com.pebble.notes', '1')),
      'notes.apk',
      '--app',
      'com.pebble.notes',
      '--version',
      '1',
    );
    writeFileSync(join(first.persistTo, '..', 'other-app.apk'), reserveApk(appApk('com.other.app', '2')));
    const second = spawnSync(
      process.execPath,
      [
        'scripts/apk-upload.ts',
        join(first.persistTo, '..', 'other-app.apk'),
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
    const run = upload(
      reserveApk(appApk('com.pebble.notes', '1')),
      'notes v2.apk',
      '--app',
      'com.pebble.notes',
      '--version',
      '1',
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--name');
  });

  it('asks for the version when the manifest has none', () => {
    const run = upload(reserveApk(appApk('com.pebble.notes')), 'notes.apk');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage');
    expect(run.stderr).toContain('no android:versionName: give the version with --version');
  });

  it('refuses an APK whose manifest is not binary XML, whatever the flags (bad-manifest)', async () => {
    const run = upload(reserveApk(craftedApk()), 'notes.apk', '--app', 'com.pebble.notes', '--version', '1');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('bad-manifest');
    expect(await stored(run.persistTo, 'notes.apk')).toEqual({ object: null, record: null });
  });
});

/** A real APK: aapt compiles the manifest, apksigner signs it, `npm run apk:reserve` reserves it. */
function reservedByCli(apk: Uint8Array): Uint8Array {
  const folder = mkdtempSync(join(dir, 'aapt-'));
  writeFileSync(join(folder, 'app-release.apk'), apk);
  const run = spawnSync(
    process.execPath,
    ['scripts/apk-reserve.ts', join(folder, 'app-release.apk'), join(folder, 'parent.apk')],
    { encoding: 'utf8', env: TOOL_ENV },
  );
  if (run.status !== 0) throw new Error(`apk:reserve failed: ${run.stderr}`);
  return new Uint8Array(readFileSync(join(folder, 'parent.apk')));
}

describe('apk:upload of a real APK built by aapt', { timeout: 60_000 }, () => {
  let parent: Uint8Array;
  let byReference: Uint8Array;
  beforeAll(() => {
    parent = reservedByCli(
      aaptApk(manifestText('package="com.pebble.notes" android:versionCode="24" android:versionName="2.4.0"')),
    );
    byReference = reservedByCli(
      aaptApk(manifestText('package="com.pebble.notes" android:versionName="@string/version"'), { version: '3.0' }),
    );
  });

  it('records the manifest’s package and versionName when no flag is given', async () => {
    const run = upload(parent, 'pebble-notes.apk');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('for com.pebble.notes');
    expect(run.stdout).toContain('version 2.4.0');
    const { object, record } = await stored(run.persistTo, 'pebble-notes.apk');
    expect(object?.meta).toMatchObject({ app: 'com.pebble.notes', version: '2.4.0' });
    expect(record).toEqual({
      'com.pebble.notes': {
        file: 'pebble-notes.apk',
        size: parent.length,
        sha256: createHash('sha256').update(parent).digest('hex'),
        version: '2.4.0',
      },
    });
  });

  it('refuses a --version that contradicts the manifest with exit 2, naming both, and writes nothing', async () => {
    const run = upload(parent, 'pebble-notes.apk', '--version', '2.5.0');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--version "2.5.0" contradicts the APK\'s versionName "2.4.0"');
    expect(await stored(run.persistTo, 'pebble-notes.apk')).toEqual({ object: null, record: null });
  });

  it('refuses an --app that contradicts the manifest with exit 2, naming both, and writes nothing', async () => {
    const run = upload(parent, 'pebble-notes.apk', '--app', 'com.pebble.other', '--version', '2.4.0');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--app "com.pebble.other" contradicts the APK\'s package "com.pebble.notes"');
    expect(await stored(run.persistTo, 'pebble-notes.apk')).toEqual({ object: null, record: null });
  });

  it('asks for --version when versionName is a resource reference, and takes it then', async () => {
    const refused = upload(byReference, 'pebble-notes.apk');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/android:versionName is a resource reference \(@0x7f[0-9a-f]{6}\)/);
    expect(refused.stderr).toContain('--version');
    const run = upload(byReference, 'pebble-notes.apk', '--version', '3.0');
    expect(run.status, run.stderr).toBe(0);
    const { record } = await stored(run.persistTo, 'pebble-notes.apk');
    expect(record['com.pebble.notes'].version).toBe('3.0');
  });
});
