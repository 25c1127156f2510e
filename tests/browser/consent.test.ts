/**
 * Consent on the page (docs/privacy.md, "Consent"), in Chromium against the started worker: a visitor
 * whose browser sends Global Privacy Control, or whose TCF string lacks special feature 2, never
 * loads FingerprintJS and has no fingerprint id (a stored one is forgotten), and the tap reports the
 * consent with its click; a TCF string that allows it still gets the fingerprint id.
 */
import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated, marked } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

/** FingerprintJS's own built chunk. */
function fingerprintChunk(): string {
  const manifest: Record<string, { file: string; src?: string }> = JSON.parse(
    readFileSync('dist/client/.vite/manifest.json', 'utf8'),
  );
  const entry = Object.values(manifest).find((chunk) => chunk.src?.includes('@fingerprintjs/fingerprintjs'));
  if (!entry) throw new Error('No FingerprintJS chunk');
  return `/${entry.file}`;
}

/** A TC string consenting to purposes 1, 2 and 7; special feature 2 opted in when `scan`. */
function tcString(scan: boolean): string {
  const model = new GppModel();
  model.setFieldValue('tcfeuv2', 'PurposeConsents', [
    true,
    true,
    false,
    false,
    false,
    false,
    true,
    ...Array(17).fill(false),
  ]);
  model.setFieldValue('tcfeuv2', 'SpecialFeatureOptins', [false, scan, ...Array(10).fill(false)]);
  model.setFieldValue('tcfeuv2', 'CmpId', 10);
  return model.encodeSection('tcfeuv2');
}

interface Visit {
  page: Page;
  fingerprintLoads: () => number;
  clicks: Record<string, unknown>[];
  close(): Promise<void>;
}

/** `/landing` + `query` on a phone, with `gpc` as the browser's setting and a fingerprint id stored before. */
async function visit(query: string, gpc: boolean): Promise<Visit> {
  const context = await browser.newContext(DEVICES.android);
  const page = await context.newPage();
  const chunk = fingerprintChunk();
  let loads = 0;
  const clicks: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === chunk) loads += 1;
    if (path === '/api/a/click') clicks.push(JSON.parse(request.postData() ?? 'null'));
  });
  await page.addInitScript((on: boolean) => {
    if (on) Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });
    if (location.pathname === '/landing' && !sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('fingerprint_id', 'kept-before-consent-0123');
    }
    // The page stays: a tap's navigation to the store is cancelled after every page listener.
    window.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
    });
  }, gpc);
  await page.goto(`${baseURL}/landing${query}`);
  await hydrated(page);
  await marked(page, 'taps', 'ready');
  return { page, fingerprintLoads: () => loads, clicks, close: () => context.close() };
}

/** Waits past the 3 s of quiet a fingerprint waits for, the identity resolved. */
async function pastQuiet(page: Page): Promise<void> {
  await marked(page, 'identity', 'resolved', 15_000);
  await page.waitForTimeout(3_500);
}

const storedFingerprint = (page: Page) => page.evaluate(() => localStorage.getItem('fingerprint_id'));

describe('consent on the page', () => {
  it('with Global Privacy Control: FingerprintJS never loads, the stored id is forgotten, the tap says gpc', async () => {
    const { page, fingerprintLoads, clicks, close } = await visit('', true);
    await pastQuiet(page);
    expect(fingerprintLoads()).toBe(0);
    expect(await storedFingerprint(page)).toBeNull();
    await page.tap('.button-landing');
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ consent: { gpc: true } });
    await close();
  });

  it('with a TCF string without special feature 2 in the query: no FingerprintJS, and the tap carries it', async () => {
    const tcf = tcString(false);
    const { page, fingerprintLoads, clicks, close } = await visit(`?gdpr=1&gdpr_consent=${tcf}`, false);
    await pastQuiet(page);
    expect(fingerprintLoads()).toBe(0);
    expect(await storedFingerprint(page)).toBeNull();
    await page.tap('.button-landing');
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ consent: { tcf } });
    expect(clicks[0]?.consent).not.toHaveProperty('gpc');
    await close();
  });

  it('with a TCF string that allows it, the fingerprint id stays (and without any signal the tap sends no consent)', async () => {
    const allowing = await visit(`?gdpr_consent=${tcString(true)}`, false);
    await pastQuiet(allowing.page);
    expect(await storedFingerprint(allowing.page)).toBe('kept-before-consent-0123');
    await allowing.close();
    const plain = await visit('', false);
    await plain.page.tap('.button-landing');
    await expect.poll(() => plain.clicks.length).toBe(1);
    expect(plain.clicks[0]).not.toHaveProperty('consent');
    await plain.close();
  });
});
