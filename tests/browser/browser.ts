/** Real Chromium (Debian's package) driven by playwright-core, with the devices visitors use. */
import { mkdirSync } from 'node:fs';
import {
  type Browser,
  type BrowserContextOptions,
  type ConsoleMessage,
  chromium,
  devices,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

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

const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; PHF110 Build/RKQ1.211119.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160117 MMWEBSDK/20231202 MMWEBID/4213 MicroMessenger/8.0.46.2540(0x28002E3C) WeChat/arm64 Weixin NetType/5G Language/zh_CN ABI/arm64';

/** Device profiles for `browser.newContext(...)`. */
export const DEVICES = {
  iPhone: { ...devices['iPhone 13'] },
  android: { ...devices['Pixel 7'] },
  desktop: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
  weChatAndroid: { ...devices['Pixel 7'], userAgent: WECHAT_ANDROID },
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

/** Waits until React has hydrated the document (the entry marks <html> when it is done). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** Saves a PNG of what the visitor sees under docs/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('docs/screenshots', { recursive: true });
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: false });
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
