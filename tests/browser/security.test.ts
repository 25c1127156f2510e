/**
 * The page's security in real Chromium (docs/security.md): no Content Security Policy violation and no
 * console error on any page for iOS, Android, desktop and WeChat visitors; XSS canaries in the
 * campaign token `d`, in plain query values and in the Referer never execute; a rendered page and its
 * kept copy run their own files only, with no nonce.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encryptToken } from '../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../worker/settings.ts';
import { DEVICES, hydrated, launch, watch } from './browser.ts';

const baseURL = inject('baseURL');
let browser: Browser;

declare global {
  interface Window {
    __xss: unknown[];
    __csp: string[];
  }
}

/** Runs before any page script: records CSP violations and gives the canaries somewhere to report. */
const PROBES = () => {
  window.__xss = [];
  window.__csp = [];
  document.addEventListener(
    'securitypolicyviolation',
    (event) =>
      window.__csp.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    true,
  );
};

/** Payloads that report to `window.__xss` if they ever run, in HTML, attribute, URL and script contexts. */
const CANARIES = [
  '"><img src=x onerror="__xss.push(1)">',
  '</script><script>__xss.push(2)</script>',
  'javascript:__xss.push(3)',
  '<svg onload=__xss.push(4)>',
  "'-__xss.push(5)-'",
  '\u2028__xss.push(6)//',
  '<iframe srcdoc="<script>parent.__xss.push(7)</script>">',
];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

async function open(device: keyof typeof DEVICES): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(DEVICES[device]);
  await context.addInitScript(PROBES);
  return { context, page: await context.newPage() };
}

/** After hydration and the deferred chunks (identity, device refinement, enhancements). */
async function settled(page: Page): Promise<{ xss: unknown[]; csp: string[] }> {
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => ({ xss: window.__xss, csp: window.__csp }));
}

const PAGES = [
  { path: '/', status: 200 },
  { path: '/landing?channel=spring&inviter=Ann', status: 200 },
  { path: '/test', status: 200 },
  { path: '/no-such-page', status: 404 },
];

describe('CSP and console in Chromium', () => {
  for (const device of ['iPhone', 'android', 'desktop', 'weChatAndroid'] as const) {
    it(`shows every page to ${device} with no CSP violation and no console error`, async () => {
      const { context, page } = await open(device);
      const log = watch(page);
      for (const { path, status } of PAGES) {
        log.errors.length = 0;
        const res = await page.goto(`${baseURL}${path}`);
        expect(res?.status(), path).toBe(status);
        const { csp, xss } = await settled(page);
        expect(csp, path).toEqual([]);
        expect(xss, path).toEqual([]);
        // Chromium reports the document's own 404 status as a console error; that one is the point.
        const errors = log.errors.filter((e) => !(status === 404 && e.includes('status of 404')));
        expect(errors, path).toEqual([]);
      }
      await context.close();
    });
  }
});

describe('XSS canaries', () => {
  it('the probes work: an injected inline script is blocked and reported', async () => {
    const { context, page } = await open('iPhone');
    await page.goto(`${baseURL}/`);
    await settled(page);
    const { xss, csp } = await page.evaluate(async () => {
      const reported = new Promise((resolve) => document.addEventListener('securitypolicyviolation', resolve));
      const script = document.createElement('script');
      script.textContent = '__xss.push("injected")';
      document.body.appendChild(script);
      await reported;
      return { xss: window.__xss, csp: window.__csp };
    });
    expect(xss).toEqual([]);
    expect(csp.some((v) => v.startsWith('script-src'))).toBe(true);
    await context.close();
  });

  it('never run from plain query values', async () => {
    const { context, page } = await open('iPhone');
    const query = new URLSearchParams(CANARIES.map((canary, i) => [i === 0 ? 'inviter' : `c${i}`, canary]));
    query.append(CANARIES[1] ?? '', 'key');
    await page.goto(`${baseURL}/landing?${query}`);
    const { xss, csp } = await settled(page);
    expect(xss).toEqual([]);
    expect(csp).toEqual([]);
    // The value arrived and is shown as text.
    await expect(page.locator('.campaign-inviter strong').textContent()).resolves.toBe(CANARIES[0]);
    await context.close();
  });

  it('never run from a campaign token d, valid or not', async () => {
    const { context, page } = await open('android');
    const payload = Object.fromEntries(CANARIES.map((canary, i) => [i === 0 ? 'inviter' : `c${i}`, canary]));
    const token = encryptToken(JSON.stringify(payload), DEV_DECODE_KEY);
    for (const d of [token, CANARIES.join('')]) {
      await page.goto(`${baseURL}/landing?d=${encodeURIComponent(d)}`);
      const { xss, csp } = await settled(page);
      expect(xss).toEqual([]);
      expect(csp).toEqual([]);
    }
    await expect(page.locator('.campaign-inviter').count()).resolves.toBe(0);
    await context.close();
  });

  it('never run from the Referer', async () => {
    const { context, page } = await open('desktop');
    const referer = `https://ref.test/?q=${encodeURIComponent(CANARIES.join(''))}`;
    for (const path of ['/', '/landing', '/test']) {
      await page.goto(`${baseURL}${path}`, { referer });
      const { xss, csp } = await settled(page);
      expect(xss, path).toEqual([]);
      expect(csp, path).toEqual([]);
    }
    await context.close();
  });
});

describe('nonce', () => {
  it('is on no rendered page nor its kept copy, and the page hydrates under a CSP of its own files', async () => {
    const { context, page } = await open('iPhone');
    const scriptSources: string[] = [];
    // Three new channels are three rendered pages; the last one again is its kept page (settled()
    // waits for hydration, long after the render was kept). Each hydrates: settled() waits for it.
    // Pages never kept (a 404) carry a fresh nonce: tests/worker/middleware/security-headers.test.ts.
    const channels = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const channel of [...channels, channels[2]]) {
      const res = await page.goto(`${baseURL}/?channel=${channel}`);
      const csp = (await res?.headerValue('content-security-policy')) ?? '';
      scriptSources.push(/script-src [^;]+/.exec(csp)?.[0] ?? '');
      const { csp: violations } = await settled(page);
      expect(violations).toEqual([]);
    }
    expect(scriptSources).toEqual(Array(4).fill("script-src 'self'"));
    await context.close();
  });
});
