/** Real Chromium (Debian's package) driven by playwright-core, with the devices visitors use. */
import { mkdirSync } from 'node:fs';
import {
  type Browser,
  type BrowserContextOptions,
  type ConsoleMessage,
  chromium,
  devices,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { UA } from '../fixtures/agents.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Chromium for the calling test file: launched before its tests, closed after them. The returned
 * object stands for the browser once it has started (using it outside a test is an error).
 */
export function browserForThisFile(): Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return new Proxy({} as Browser, {
    get(_, key) {
      if (!browser) throw new Error('Chromium is not running: use the browser inside a test');
      const value = Reflect.get(browser, key, browser);
      return typeof value === 'function' ? value.bind(browser) : value;
    },
  });
}

/** Device profiles for `browser.newContext(...)`. */
export const DEVICES = {
  iPhone: { ...devices['iPhone 13'] },
  android: { ...devices['Pixel 7'] },
  desktop: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
  weChatAndroid: { ...devices['Pixel 7'], userAgent: UA.weChatAndroid },
} satisfies Record<string, BrowserContextOptions>;

export interface PageLog {
  errors: string[];
  messages: string[];
}

/** Collects console errors, page errors and every console message of `page`. */
export function watch(page: Page): PageLog {
  const log: PageLog = { errors: [], messages: [] };
  page.on('console', (message: ConsoleMessage) => {
    log.messages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') log.errors.push(message.text());
  });
  page.on('pageerror', (error) => log.errors.push(error.message));
  return log;
}

/**
 * Waits until the page's code marks <html> with `data-<name>="<value>"` (`dataset[name]`), within
 * `timeout` ms (Playwright's default without one). Called while a navigation is under way, it may
 * first look at a document that has no <html> yet.
 */
export async function marked(page: Page, name: string, value: string, timeout?: number): Promise<void> {
  await page.waitForFunction(
    ([name, value]) => document.documentElement?.dataset[name] === value,
    [name, value] as const,
    timeout === undefined ? {} : { timeout },
  );
}

/** Waits until React has hydrated the document (the entry marks <html> when it is done). */
export const hydrated = (page: Page): Promise<void> => marked(page, 'hydrated', 'true');

/** Saves a PNG of what the visitor sees under docs/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('docs/screenshots', { recursive: true });
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: false });
}

/** Where `element` sits in its document (not the viewport) and how large it is, as one string. */
const placeOf = (element: Locator): Promise<string> =>
  element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return [box.top + window.scrollY, box.left + window.scrollX, box.width, box.height].join(' ');
  });

/**
 * Saves a PNG of `element` under docs/screenshots/ once it holds still: panels above it that fill in
 * late move it down the page, and a picture taken meanwhile shows what was above it instead.
 */
export async function screenshotOf(
  element: Locator,
  name: string,
  { within = 15_000, everyMs = 250 } = {},
): Promise<void> {
  mkdirSync('docs/screenshots', { recursive: true });
  const deadline = Date.now() + within;
  let last = await placeOf(element);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    const now = await placeOf(element);
    if (now === last) break;
    if (Date.now() > deadline) throw new Error(`${name}: the element kept moving (${last} → ${now})`);
    last = now;
  }
  await element.scrollIntoViewIfNeeded();
  await element.screenshot({ path: `docs/screenshots/${name}.png` });
}

/** A build manifest request (`/assets/builds/meta/<id>.json`): the browser code after hydration asks for it. */
export const BUILD_MANIFEST = /\/assets\/builds\/meta\/[\w-]+\.json$/;

/** Opens `url` and waits until the browser code after hydration runs (it asks for the build manifest). */
export async function openEnhanced(page: Page, url: string): Promise<void> {
  const manifestAsked = page.waitForRequest(BUILD_MANIFEST);
  await page.goto(url);
  await hydrated(page);
  await manifestAsked;
}

/**
 * Records in the page, before any page script runs, every fetch it makes (`url`) and when the
 * body has been read (`read`). Both are set synchronously by the page itself, so a test that
 * reads them after a step (another task in the page) sees everything that step started, and
 * a test that sees `read` knows the code awaiting that body has run on.
 */
export async function recordFetches(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: { url: string; read: boolean }[] = [];
    Object.assign(window, { testFetches: log });
    const original = window.fetch;
    window.fetch = async (input, init) => {
      const entry = { url: input instanceof Request ? input.url : String(input), read: false };
      log.push(entry);
      const response = await original(input, init);
      for (const method of ['text', 'json', 'arrayBuffer', 'blob'] as const) {
        const read = response[method].bind(response) as () => Promise<unknown>;
        Object.defineProperty(response, method, { value: () => read().finally(() => (entry.read = true)) });
      }
      return response;
    };
  });
}

/** The fetches `recordFetches` saw so far whose URL matches `pattern`. */
export function fetches(page: Page, pattern: RegExp): Promise<{ url: string; read: boolean }[]> {
  return page.evaluate(
    ({ source, flags }) =>
      (window as unknown as { testFetches: { url: string; read: boolean }[] }).testFetches.filter((f) =>
        new RegExp(source, flags).test(f.url),
      ),
    { source: pattern.source, flags: pattern.flags },
  );
}

/**
 * Records every navigation to another document that the page starts (the Navigation API's
 * `navigate` event fires synchronously inside `location.assign` and the like) in sessionStorage,
 * so the record outlives the documents it replaces.
 */
export async function recordNavigations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const nav = (window as unknown as { navigation?: EventTarget }).navigation;
    nav?.addEventListener('navigate', (event) => {
      const { navigationType, destination } = event as Event & {
        navigationType: string;
        destination: { url: string; sameDocument: boolean };
      };
      // History API steps of the router stay in the document: only navigations that replace it count.
      if (destination.sameDocument) return;
      const log = JSON.parse(sessionStorage.getItem('test:navigations') ?? '[]') as string[];
      log.push(`${navigationType} ${destination.url}`);
      sessionStorage.setItem('test:navigations', JSON.stringify(log));
    });
  });
}

/** The navigations `recordNavigations` saw in this tab so far. */
export function navigations(page: Page): Promise<string[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('test:navigations') ?? '[]'));
}
