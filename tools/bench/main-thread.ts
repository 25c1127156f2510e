/**
 * What a first visit to `/` costs the main thread of a phone, in Chromium with the CPU slowed down
 * four times (Lighthouse's mobile preset): the long tasks (> 50 ms) until React has hydrated the
 * page, and those of FingerprintJS's probes, which start once the visitor has left the page alone
 * (client/browser/idle.ts) and so fall outside Lighthouse's window. Blocking time is
 * Lighthouse's measure: the part of each long task over 50 ms. Median of three runs.
 */
import { chromium, type Page } from 'playwright-core';
import type { BenchRow, BenchSection } from './context.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 3;
const SLOWDOWN = 4;
// Lighthouse's mobile preset emulates a Moto G Power with this agent and screen.
const MOBILE = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

interface Phase {
  tasks: number;
  longest: number;
  blocking: number;
}

interface Visit {
  hydrated: Phase & { at: number };
  fingerprint: Phase & { after: number; runs: number };
}

/** Records long tasks and the moment of hydration from the first byte on (an init script). */
function observe(): void {
  const tasks: [number, number][] = [];
  Object.assign(window, { benchLongTasks: tasks });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_, observer) => {
    if (document.documentElement.dataset.hydrated !== 'true') return;
    Object.assign(window, { benchHydrated: performance.now() });
    observer.disconnect();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
}

function phase(tasks: [number, number][], from: number, to: number): Phase {
  const inside = tasks.filter(([start]) => start >= from && start < to).map(([, duration]) => duration);
  return {
    tasks: inside.length,
    longest: Math.max(0, ...inside),
    blocking: inside.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0),
  };
}

async function visit(page: Page, url: string): Promise<Visit> {
  await page.goto(`${url}/`);
  await page.waitForFunction(() => document.documentElement.dataset.identity === 'resolved', null, {
    timeout: 60_000,
  });
  // Let the last task end and reach the observer.
  await page.waitForTimeout(200);
  const raw = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const measure = performance.getEntriesByName('lander:fingerprint', 'measure')[0];
    const w = window as unknown as { benchLongTasks: [number, number][]; benchHydrated?: number };
    return {
      load: navigation?.loadEventEnd ?? 0,
      hydrated: w.benchHydrated ?? Number.NaN,
      fingerprint: { start: measure?.startTime ?? Number.NaN, duration: measure?.duration ?? 0 },
      tasks: w.benchLongTasks,
    };
  });
  const { start, duration } = raw.fingerprint;
  // A figure of nothing would read as "no long tasks": fail instead.
  if (!Number.isFinite(raw.hydrated)) throw new Error('The page never marked itself hydrated');
  if (!Number.isFinite(start)) throw new Error('No lander:fingerprint measure: FingerprintJS did not run');
  return {
    hydrated: { at: raw.hydrated, ...phase(raw.tasks, 0, raw.hydrated) },
    fingerprint: {
      after: start - raw.load,
      runs: duration,
      ...phase(raw.tasks, start, start + duration),
    },
  };
}

const ms = (value: number): string => `${Math.round(value)} ms`;
const describe = (p: Phase): string =>
  `${p.tasks} long task${p.tasks === 1 ? '' : 's'}, longest ${ms(p.longest)}, blocking ${ms(p.blocking)}`;

export const mainThread: BenchSection = {
  title: `Main thread on a first visit to / (Chromium, CPU slowed ${SLOWDOWN}×, median of ${RUNS})`,
  async run({ url }) {
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    const visits: Visit[] = [];
    try {
      for (let i = 0; i < RUNS; i += 1) {
        // A fresh context each time: no stored ids, so FingerprintJS runs as on a first visit.
        const context = await browser.newContext(MOBILE);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
        await page.addInitScript(observe);
        visits.push(await visit(page, url));
        await context.close();
      }
    } finally {
      await browser.close();
    }
    // The run with the median blocking time, shown whole (its start and run times with it).
    const middle = (key: (v: Visit) => number): Visit =>
      [...visits].sort((a, b) => key(a) - key(b))[Math.floor((visits.length - 1) / 2)] as Visit;
    const hydration = middle((v) => v.hydrated.blocking).hydrated;
    const fingerprint = middle((v) => v.fingerprint.blocking).fingerprint;
    const rows: BenchRow[] = [
      { name: 'Until hydrated', value: `${ms(hydration.at)} after navigation; ${describe(hydration)}` },
      {
        name: 'FingerprintJS (first visit only)',
        value: `starts ${ms(fingerprint.after)} after load, runs ${ms(fingerprint.runs)}; ${describe(fingerprint)}`,
      },
      {
        name: '  blocking of each run',
        value: visits.map((v) => `${ms(v.hydrated.blocking)} + ${ms(v.fingerprint.blocking)}`).join(', '),
      },
    ];
    return rows;
  },
};
