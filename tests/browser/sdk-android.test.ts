/**
 * The Android SDK (sdk/android) end to end against the started worker: a real signed, reserved parent
 * is uploaded with `npm run apk:upload --local`, then JUnit (`EndToEndTest`, run through
 * `npm run sdk:android` with the worker's URL as a system property) downloads a stamped APK from
 * `/dl/…`, reads the stamp from the file and is matched by `apk`; the blank parent falls back to the
 * Play referrer.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { UPLOAD, withBindings } from '../../scripts/lib/bindings.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { PARENTS_KEY } from '../../worker/apk/parents.ts';
import { filled, signedApk } from '../fixtures/apk.ts';
import { manifestAxml } from '../fixtures/axml.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const FILE = 'pebble-notes-2.4.0.apk';
const dir = mkdtempSync(join(tmpdir(), 'lander-sdk-android-'));
const parentPath = join(dir, FILE);

beforeAll(() => {
  // apk:upload checks the flags against the manifest, so the APK names the app it is uploaded as.
  const manifest = manifestAxml({ pkg: 'com.pebble.notes', versionName: '2.4.0' });
  writeFileSync(
    parentPath,
    reserveApk(signedApk({ 'AndroidManifest.xml': manifest, 'classes.dex': filled(100_000, 9) })),
  );
  const upload = spawnSync(
    process.execPath,
    [
      'scripts/apk-upload.ts',
      parentPath,
      '--app',
      'com.pebble.notes',
      '--version',
      '2.4.0',
      '--local',
      '--persist-to',
      persistTo,
    ],
    { encoding: 'utf8', env: TOOL_ENV },
  );
  if (upload.status !== 0) throw new Error(`apk:upload failed: ${upload.stderr}`);
}, 60_000);

afterAll(async () => {
  // The other test files see the page without a parent again.
  await withBindings({ local: true, persistTo }, UPLOAD, ({ KV }) => KV.put(PARENTS_KEY, '{}'));
  rmSync(dir, { recursive: true, force: true });
});

it('JUnit: a stamped download is matched by apk; the unstamped parent falls back to the referrer', () => {
  const minted = execFileSync(
    process.execPath,
    ['scripts/link.ts', '--channel', 'spring-sale', '--inviter', 'Ann Lee'],
    {
      encoding: 'utf8',
      env: { ...process.env, DECODE_KEY: '' },
    },
  );
  const token = new URL(minted.trim()).searchParams.get('d') ?? '';
  const run = spawnSync(
    process.execPath,
    [
      'scripts/sdk-android.ts',
      '--out',
      join(dir, 'build'),
      '--test',
      'io.lander.sdk.EndToEndTest',
      `-Dlander.url=${baseURL}`,
      `-Dlander.apkFile=${FILE}`,
      `-Dlander.parent=${parentPath}`,
      `-Dlander.token=${token}`,
    ],
    { encoding: 'utf8' },
  );
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain('OK (2 tests)');
}, 120_000);
