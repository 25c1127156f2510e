/**
 * Lighthouse (mobile preset: a mid-range phone on a throttled 4G link) on `/` as an iPhone-less
 * first visit, driving Debian's Chromium. Targets: ≥ 95 in every category and no layout shift.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { BenchRow, BenchSection } from './context.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export const lighthouseSection: BenchSection = {
  title: 'Lighthouse on / (mobile preset, Chromium)',
  async run({ url }) {
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--lang=en-US'],
    });
    try {
      const result = await lighthouse(`${url}/`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const { categories, audits } = result.lhr;
      const rows: BenchRow[] = CATEGORIES.map((id) => {
        const score = Math.round((categories[id]?.score ?? 0) * 100);
        return { name: `Lighthouse ${id}`, value: String(score), budget: { limit: '≥ 95', ok: score >= 95 } };
      });
      const cls = audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
      rows.push({ name: 'Cumulative Layout Shift', value: cls.toFixed(3), budget: { limit: '= 0', ok: cls === 0 } });
      for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time']) {
        rows.push({ name: `  ${audits[id]?.title ?? id}`, value: audits[id]?.displayValue ?? '—' });
      }
      // Scored audits under 0.9, to say where points went (insights are advice, not scores).
      const failing = Object.values(audits).filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          (a.scoreDisplayMode === 'numeric' || a.scoreDisplayMode === 'binary') &&
          !a.id.endsWith('-insight'),
      );
      if (failing.length > 0) rows.push({ name: '  audits below 0.9', value: failing.map((a) => a.id).join(', ') });
      return rows;
    } finally {
      chrome.kill();
    }
  },
};
