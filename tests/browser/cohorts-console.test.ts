/**
 * The console's cohorts panel (docs/operators.md#cohorts) in real Chromium against the started
 * worker: a week of cohorts of three channels written into the started worker's local D1 (as the
 * funnel's consumer keeps them, `wrangler d1 execute --local`), then the triangle as retention and as
 * value per install, and the channels' curves side by side, on the same scale, at a phone's 390 px and
 * a desktop's 1280 px in English and Chinese: nothing wider than its panel. Takes the screenshots.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../shared/day-range.ts';
import { utcDay } from '../../shared/time-zone.ts';
import { browserForThisFile, DEVICES, hydrated, screenshotOf, watch } from './browser.ts';
import { localSql } from './local-d1.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const TOKEN = 'lander-dev-admin';
const CHANNELS = [
  ['spring-sale', 120, 0.42],
  ['wechat-moments', 80, 0.3],
  ['', 40, 0.18],
] as const;
const AGES = [0, 1, 2, 3, 4, 5, 6];

const browser = browserForThisFile();

const sql = (command: string) => localSql(persistTo, command);

/** A week of cohorts: each channel's installs a day, retained falling day by day, purchases in USD. */
function seed(): void {
  const today = utcDay(Date.now());
  const rows: string[] = [];
  for (let back = 6; back >= 0; back -= 1) {
    const day = addDays(today, -back);
    for (const [channel, installs, keep] of CHANNELS) {
      const row = (age: number, metric: string, n: number) =>
        rows.push(`('default','${day}','${channel}','','','','referrer',${age},'${metric}',${n})`);
      row(0, 'installs', installs + back * 3);
      for (const age of AGES.filter((age) => age <= back)) {
        row(age, 'retained', Math.round((installs + back * 3) * (age === 0 ? 0.9 : keep / Math.sqrt(age))));
        row(age, 'value:USD', Math.round(installs * keep * 499 * (age === 0 ? 1 : 0.4)));
      }
    }
  }
  sql(
    'INSERT INTO cohort_daily (app, day, channel, inviter, link, variant, method, age, metric, n) VALUES ' +
      `${rows.join(',')} ON CONFLICT DO UPDATE SET n = excluded.n`,
  );
}

function atWidth(width: number, locale: string): BrowserContextOptions {
  const phone = width <= 390;
  return {
    ...(phone ? DEVICES.iPhone : DEVICES.desktop),
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    locale,
  };
}

async function cohortsAt(width: number, locale: string): Promise<Page> {
  const page = await (await browser.newContext(atWidth(width, locale))).newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator('.cohort-triangle tbody tr').first().waitFor();
  return page;
}

/** How far anything in the cohorts panel reaches past the panel's right edge, in CSS pixels. */
const overflow = (page: Page) =>
  page.locator('.cohorts').evaluate((panel) => {
    const edge = panel.getBoundingClientRect().right;
    const inner = [...panel.querySelectorAll('*')].map((element) => element.getBoundingClientRect().right);
    return Math.max(0, panel.scrollWidth - panel.clientWidth, ...inner.map((right) => right - edge));
  });

beforeAll(seed, 60_000);
afterAll(() => sql("DELETE FROM cohort_daily WHERE channel IN ('spring-sale', 'wechat-moments', '')"));

describe('the cohorts panel', () => {
  it.each([
    [1280, 'en'],
    [390, 'zh-CN'],
    [1280, 'zh-CN'],
    [390, 'en'],
  ])('shows the triangle and the curves side by side at %i px in %s', async (width, locale) => {
    const page = await cohortsAt(width, locale);
    const log = watch(page);
    const triangle = page.locator('.cohort-triangle');
    expect(await triangle.locator('tbody tr').count()).toBe(7);
    // The triangle: the oldest day has its D0–D3 filled (of D0, D1, D2, D3, D7…), today only its D0.
    const oldest = triangle.locator('tbody tr').first().locator('td.cohort-cell');
    expect(await oldest.nth(1).textContent()).toMatch(/^\d+%$/);
    const today = triangle.locator('tbody tr').last().locator('td.cohort-cell');
    expect(await today.nth(0).textContent()).toMatch(/^\d+%$/);
    expect(await today.nth(1).textContent()).toBe('');
    expect(await page.locator('.retention-curves li').count()).toBe(3);
    expect(await page.locator('.retention-curves li').first().getAttribute('data-curve')).toBe('spring-sale');
    expect(await overflow(page)).toBeLessThanOrEqual(0.5);
    await page.locator('.cohorts').scrollIntoViewIfNeeded();
    await screenshotOf(page.locator('.cohorts'), `console-cohorts-${width}-${locale}`);
    // Value per install in USD: the same triangle, in dollars.
    await page.locator('.cohort-controls select').last().selectOption('USD');
    await expect.poll(() => triangle.getAttribute('data-cohort-metric')).toBe('USD');
    expect(await oldest.nth(0).textContent()).toMatch(/^\d+\.\d{2}$/);
    expect(log.errors).toEqual([]);
  });
});
