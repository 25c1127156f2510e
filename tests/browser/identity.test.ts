import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const browser = browserForThisFile();

/** Built file of a module, from the client build's manifest (e.g. FingerprintJS's own chunk). */
function builtFile(sourceIncludes: string): string {
  const manifest: Record<string, { file: string; src?: string }> = JSON.parse(
    readFileSync('dist/client/.vite/manifest.json', 'utf8'),
  );
  const entry = Object.values(manifest).find((chunk) => chunk.src?.includes(sourceIncludes));
  if (!entry) throw new Error(`No chunk built from ${sourceIncludes}`);
  return `/${entry.file}`;
}

/** Counts this page's calls to /api/trace. */
function countTraceCalls(page: Page): { count: number } {
  const calls = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/trace') calls.count += 1;
  });
  return calls;
}

/** Opens `path`, waits for hydration and for both ids to be resolved. */
/** Waits until `page` is hydrated and has resolved both ids. */
async function resolved(page: Page): Promise<void> {
  await hydrated(page);
  await marked(page, 'identity', 'resolved');
}

async function visit(page: Page, path = '/'): Promise<void> {
  await page.goto(`${baseURL}${path}`);
  await resolved(page);
}

async function reloadResolved(page: Page): Promise<void> {
  await page.reload();
  await resolved(page);
}

async function storedIds(page: Page, context: BrowserContext) {
  const local = await page.evaluate(() => ({
    userId: localStorage.getItem('user_id'),
    fingerprintId: localStorage.getItem('fingerprint_id'),
  }));
  const cookie = (await context.cookies(baseURL)).find((c) => c.name === 'user_id');
  return { ...local, cookie };
}

/** The id and source the /test screen shows for `name` (visitor or fingerprint). */
async function shown(page: Page, name: 'visitor' | 'fingerprint') {
  const row = page.locator(`tr[data-identity="${name}"]`);
  return { id: await row.locator('.identity-id').textContent(), source: await row.getAttribute('data-source') };
}

/** The words the /test screen says the source of `name` in. */
const sourceText = (page: Page, name: 'visitor' | 'fingerprint') =>
  page.locator(`tr[data-identity="${name}"] .identity-source`).textContent();

describe('the visitor id in Chromium (docs/identity.md)', () => {
  it('stores on a first visit the id /api/trace returned, in localStorage and in the cookie', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const traced = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/trace');
    await visit(page);
    const { userId } = (await (await traced).json()) as { userId: string };
    expect(userId).toMatch(UUID);
    const stored = await storedIds(page, context);
    expect(stored.userId).toBe(userId);
    expect(stored.cookie?.value).toBe(userId);
    expect(stored.cookie).toMatchObject({ path: '/', secure: true, sameSite: 'Lax', httpOnly: false });
    const lifetime = (stored.cookie?.expires ?? 0) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(31_536_000 - 120);
    expect(lifetime).toBeLessThanOrEqual(31_536_000 + 5);
    await context.close();
  });

  it('makes no trace call on a second visit, and /test shows the id as stored', async () => {
    const context = await browser.newContext(DEVICES.android);
    const first = await context.newPage();
    await visit(first);
    const { userId } = await storedIds(first, context);
    const page = await context.newPage();
    const calls = countTraceCalls(page);
    await visit(page, '/test');
    expect(calls.count).toBe(0);
    expect(await shown(page, 'visitor')).toEqual({ id: userId, source: 'stored' });
    await context.close();
  });

  it('keeps the id from the cookie when localStorage was cleared, and writes it back', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    await visit(page);
    const { userId } = await storedIds(page, context);
    await page.evaluate(() => localStorage.clear());
    const calls = countTraceCalls(page);
    await visit(page);
    expect(calls.count).toBe(0);
    const stored = await storedIds(page, context);
    expect(stored.userId).toBe(userId);
    expect(stored.cookie?.value).toBe(userId);
    await context.close();
  });

  it('still works when the trace service answers 503: one retry, a warning, a temporary UUID stored', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    let traceCalls = 0;
    await page.route('**/api/trace*', (route) => {
      traceCalls += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' });
    });
    const log = watch(page);
    await visit(page, '/test');
    expect(traceCalls).toBe(2);
    expect(log.messages.some((m) => m.startsWith('warning:') && m.includes('HTTP error! status: 503'))).toBe(true);
    expect(log.errors.filter((e) => !e.includes('503'))).toEqual([]);
    const stored = await storedIds(page, context);
    expect(stored.userId).toMatch(UUID);
    expect(stored.cookie?.value).toBe(stored.userId);
    expect(await shown(page, 'visitor')).toEqual({ id: stored.userId, source: 'temporary' });
    expect(await page.textContent('h1')).toBe('Diagnostics');
    await context.close();
  });
});

describe('the fingerprint id in Chromium (docs/identity.md)', () => {
  it('stores fingerprint_id once and keeps it across reloads; /test shows both ids and their sources', async () => {
    const context = await browser.newContext(DEVICES.desktop);
    const page = await context.newPage();
    const log = watch(page);
    await visit(page, '/test');
    const first = await storedIds(page, context);
    expect(first.fingerprintId).toMatch(/^[0-9a-f]{32}$/);
    expect(await shown(page, 'fingerprint')).toEqual({ id: first.fingerprintId, source: 'fingerprintjs' });
    expect(await shown(page, 'visitor')).toEqual({ id: first.userId, source: 'trace' });
    expect(await sourceText(page, 'fingerprint')).toBe('from FingerprintJS');
    expect(await sourceText(page, 'visitor')).toBe('from /api/trace');
    await screenshot(page, 'test-identity-desktop');
    await reloadResolved(page);
    expect((await storedIds(page, context)).fingerprintId).toBe(first.fingerprintId);
    expect(await shown(page, 'fingerprint')).toEqual({ id: first.fingerprintId, source: 'stored' });
    expect(await sourceText(page, 'fingerprint')).toBe('stored on this device');
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("says on /test where each id came from in the page's language, zh-CN included", async () => {
    const context = await browser.newContext({ ...DEVICES.desktop, locale: 'zh-CN' });
    const page = await context.newPage();
    const log = watch(page);
    await visit(page, '/test');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await shown(page, 'fingerprint')).toMatchObject({ source: 'fingerprintjs' });
    expect(await sourceText(page, 'fingerprint')).toBe('来自 FingerprintJS');
    expect(await sourceText(page, 'visitor')).toBe('来自 /api/trace');
    await screenshot(page, 'test-identity-desktop-zh-CN');
    await reloadResolved(page);
    expect(await sourceText(page, 'visitor')).toBe('本机已保存');
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it('computes it only once the visitor has left the page alone for 3 s; the visitor id does not wait', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    // A visitor busy with the page, scripted in it: a key press every half second for at least
    // 4.5 s and on until the visitor id is stored; the page notes what it saw at the last press.
    // (The page's own clock paces the visitor: a faked clock would also silence performance marks.)
    await page.evaluate(() => {
      const w = window as unknown as { lastKey: number; busy?: Record<string, unknown> };
      let presses = 0;
      const visitor = setInterval(() => {
        w.lastKey = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
        presses += 1;
        if (presses < 9 || !localStorage.getItem('user_id')) return;
        clearInterval(visitor);
        w.busy = {
          lastKey: w.lastKey,
          userId: localStorage.getItem('user_id'),
          fingerprintId: localStorage.getItem('fingerprint_id'),
          started: performance.getEntriesByName('lander:fingerprint-start').length,
        };
      }, 500);
    });
    await page.waitForFunction(() => (window as unknown as { busy?: unknown }).busy !== undefined, null, {
      timeout: 30_000,
    });
    const busy = await page.evaluate(
      () =>
        (window as unknown as { busy: { lastKey: number; userId: string; fingerprintId: null; started: number } }).busy,
    );
    expect(busy.userId).toMatch(UUID);
    expect(busy).toMatchObject({ fingerprintId: null, started: 0 });
    await marked(page, 'identity', 'resolved');
    const fingerprintjs = builtFile('@fingerprintjs/fingerprintjs');
    const done = await page.evaluate((file) => {
      const keys = performance.getEntriesByName('lander:fingerprint-start');
      const fetched = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === file);
      return {
        started: keys[0]?.startTime ?? 0,
        fetched: fetched?.startTime ?? 0,
        measured: performance.getEntriesByName('lander:fingerprint', 'measure').length,
        fingerprintId: localStorage.getItem('fingerprint_id'),
      };
    }, fingerprintjs);
    // The quiet time counts from the last key press (timers may fire a millisecond early by this clock).
    expect(done.started).toBeGreaterThanOrEqual(busy.lastKey + 2990);
    expect(done.fetched).toBeGreaterThanOrEqual(done.started);
    expect(done.measured).toBe(1);
    expect(done.fingerprintId).toMatch(/^[0-9a-f]{32}$/);
    await context.close();
  });

  it('fetches FingerprintJS and the identity code only after the load event, and only from this origin', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const hosts = new Set<string>();
    page.on('request', (request) => hosts.add(new URL(request.url()).host));
    // The logo is held until the page has hydrated, so the load event comes well after hydration
    // and fetching early would show.
    let release = () => {};
    const hydratedFirst = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/logo.png', async (route) => {
      await hydratedFirst;
      await route.continue();
    });
    const visited = visit(page);
    await hydrated(page);
    release();
    await visited;
    const fingerprintjs = builtFile('@fingerprintjs/fingerprintjs');
    const identity = builtFile('identity/start-identity.ts');
    const timing = await page.evaluate(
      (files) => {
        const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        const started = (file: string) =>
          performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === file)?.startTime;
        return {
          loadEventEnd: navigation?.loadEventEnd ?? 0,
          fingerprintjs: started(files[0] ?? ''),
          identity: started(files[1] ?? ''),
          preloaded: [...document.querySelectorAll('link[rel="modulepreload"], script[src]')].map(
            (el) => el.getAttribute('href') ?? el.getAttribute('src'),
          ),
        };
      },
      [fingerprintjs, identity],
    );
    expect(timing.loadEventEnd).toBeGreaterThan(0);
    expect(timing.identity).toBeGreaterThanOrEqual(timing.loadEventEnd);
    expect(timing.fingerprintjs).toBeGreaterThanOrEqual(timing.loadEventEnd);
    expect(timing.preloaded).not.toContain(fingerprintjs);
    expect(timing.preloaded).not.toContain(identity);
    // FingerprintJS's statistics request to its vendor is switched off.
    expect([...hosts]).toEqual([new URL(baseURL).host]);
    await context.close();
  });
});
