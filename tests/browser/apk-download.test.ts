/**
 * Stamped APKs against the started worker (docs/apk-stamping.md): a real signed parent uploaded with
 * `npm run apk:upload --local`, a stamped download that apksigner still verifies, and an Android
 * visitor's tap in Chromium that downloads the stamped file carrying the click's own carrier.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { UPLOAD, withBindings } from '../../scripts/lib/bindings.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { toBase64Url } from '../../shared/base64url.ts';
import { PARENTS_KEY } from '../../worker/apk/parents.ts';
import { UA } from '../fixtures/agents.ts';
import { filled, readCarrier, signedApk, verifyApk } from '../fixtures/apk.ts';
import { manifestAxml } from '../fixtures/axml.ts';
import { DEVICES, hydrated, launch, marked } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const FILE = 'pebble-notes-2.4.0.apk';
const dir = mkdtempSync(join(tmpdir(), 'lander-apk-browser-'));
let parent: Uint8Array;
let browser: Browser;

beforeAll(async () => {
  // apk:upload checks the flags against the manifest, so the APK names the app it is uploaded as.
  const manifest = manifestAxml({ pkg: 'com.pebble.notes', versionName: '2.4.0' });
  parent = reserveApk(signedApk({ 'AndroidManifest.xml': manifest, 'classes.dex': filled(200_000, 5) }));
  writeFileSync(join(dir, FILE), parent);
  const upload = spawnSync(
    process.execPath,
    [
      'scripts/apk-upload.ts',
      join(dir, FILE),
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
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  // The other test files see the page without a parent again.
  await withBindings({ local: true, persistTo }, UPLOAD, ({ KV }) => KV.put(PARENTS_KEY, '{}'));
  rmSync(dir, { recursive: true, force: true });
});

const clickId = () => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));

describe('a stamped download from the started worker', () => {
  it('still verifies with apksigner (v2 and v3) and carries the carrier', async () => {
    const carrier = clickId();
    const response = await fetch(`${baseURL}/dl/${carrier}/${FILE}`);
    expect(response.status).toBe(200);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(parent.length);
    const verified = verifyApk(body);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Verified using v2 scheme (APK Signature Scheme v2): true');
    expect(verified.stdout).toContain('Verified using v3 scheme (APK Signature Scheme v3): true');
    expect(readCarrier(body)).toBe(carrier);
  });
});

describe('an Android visitor’s tap on the download button', () => {
  it('downloads the stamped file carrying the click beacon’s click id', async () => {
    const context = await browser.newContext({
      ...DEVICES.android,
      userAgent: UA.androidChrome,
      acceptDownloads: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${baseURL}/`);
      await hydrated(page);
      await marked(page, 'openApp', 'ready');
      const beacon = page.waitForRequest((request) => request.url().endsWith('/api/a/click'));
      const downloading = page.waitForEvent('download');
      await page.locator('a[data-kind="apk"]').first().click();
      const { clickId: beaconClickId } = JSON.parse((await beacon).postData() ?? '{}') as { clickId: string };
      const download = await downloading;
      expect(download.url()).toBe(`${baseURL}/dl/${beaconClickId}/${FILE}`);
      const bytes = new Uint8Array(readFileSync(await download.path()));
      expect(readCarrier(bytes)).toBe(beaconClickId);
    } finally {
      await context.close();
    }
  });
});

describe('the open-app fallback in an Android webview (Facebook)', () => {
  it('downloads the stamped file with the tap’s click id when the app did not open', async () => {
    const context = await browser.newContext({
      ...DEVICES.android,
      userAgent: UA.facebookAndroid,
      acceptDownloads: true,
    });
    try {
      const page = await context.newPage();
      await page.clock.install();
      await page.goto(`${baseURL}/`);
      await hydrated(page);
      await marked(page, 'openApp', 'ready');
      await page.clock.pauseAt(Date.now() + 1000);
      const beacon = page.waitForRequest((request) => request.url().endsWith('/api/a/click'));
      const downloading = page.waitForEvent('download');
      await page.tap('.button-open');
      const { clickId: beaconClickId } = JSON.parse((await beacon).postData() ?? '{}') as { clickId: string };
      await page.clock.runFor(2500);
      const download = await downloading;
      expect(download.url()).toBe(`${baseURL}/dl/${beaconClickId}/${FILE}`);
      expect(readCarrier(new Uint8Array(readFileSync(await download.path())))).toBe(beaconClickId);
    } finally {
      await context.close();
    }
  });
});
