/**
 * Lighthouse (mobile preset: a mid-range phone on a throttled 4G link) on `/`, driving Debian's
 * Chromium. Three runs, the median by performance reported, as Lighthouse's docs advise: on a
 * shared 2-core machine one run's Total Blocking Time swings with the machine's load.
 * Targets: ≥ 95 in every category and no layout shift.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { BenchRow, BenchSection } from './context.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const RUNS = 3;

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function once(url: string): Promise<Report> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--lang=en-US'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

const score = (report: Report, id: string): number => Math.round((report.categories[id]?.score ?? 0) * 100);

export const lighthouseSection: BenchSection = {
  title: `Lighthouse on / (mobile preset, Chromium, median of ${RUNS})`,
  async run({ url }) {
    const reports: Report[] = [];
    for (let i = 0; i < RUNS; i += 1) reports.push(await once(`${url}/`));
    const failed = reports.filter((r) => r.runtimeError);
    const ok = reports.filter((r) => !r.runtimeError).sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const median = ok[Math.floor((ok.length - 1) / 2)];
    if (!median) {
      const error = failed[0]?.runtimeError;
      return [{ name: 'Lighthouse failed', value: error ? `${error.code}: ${error.message}` : 'no run' }];
    }
    const rows: BenchRow[] = CATEGORIES.map((id) => {
      const value = score(median, id);
      return { name: `Lighthouse ${id}`, value: String(value), budget: { limit: '≥ 95', ok: value >= 95 } };
    });
    rows.push({ name: '  performance of each run', value: ok.map((r) => score(r, 'performance')).join(', ') });
    const cls = median.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
    rows.push({ name: 'Cumulative Layout Shift', value: cls.toFixed(3), budget: { limit: '= 0', ok: cls === 0 } });
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time']) {
      rows.push({ name: `  ${median.audits[id]?.title ?? id}`, value: median.audits[id]?.displayValue ?? '—' });
    }
    // Scored audits under 0.9, to say where points went (insights are advice, not scores).
    const below = Object.values(median.audits).filter(
      (a) =>
        a.score !== null &&
        a.score < 0.9 &&
        (a.scoreDisplayMode === 'numeric' || a.scoreDisplayMode === 'binary') &&
        !a.id.endsWith('-insight'),
    );
    if (below.length > 0) rows.push({ name: '  audits below 0.9', value: below.map((a) => a.id).join(', ') });
    // What went wrong, by Lighthouse's own code (NO_FCP, PAGE_HUNG, …): a machine's hiccup or the page's.
    const why = failed.map((r) => r.runtimeError?.code ?? 'unknown').join(', ');
    if (failed.length > 0) rows.push({ name: '  runs that failed', value: `${failed.length} (${why})` });
    return rows;
  },
};
