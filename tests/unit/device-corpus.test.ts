/**
 * Every real agent of tests/fixtures/ua-corpus.tsv (docs/device.md) is classified as the corpus
 * says: operating system, in-app name and category, mobile — and none is taken for a bot.
 */
import { describe, expect, it } from 'vitest';
import { detectDevice } from '../../shared/device.ts';
import { readCorpus } from '../fixtures/ua-corpus.ts';

const rows = readCorpus();

describe('the user-agent corpus', () => {
  it('holds every agent of the corpus file, each with an agent string and the page it was published on', () => {
    // 52 numbered agents and 10 HarmonyOS ones (H1–H10) under the header line.
    expect(rows).toHaveLength(62);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.agent).toMatch(/^Mozilla\/5\.0 \(/);
      expect(row.source).toMatch(/^https:\/\//);
    }
  });

  it.each(rows.map((row) => [`${row.id} ${row.description}`, row] as const))('classifies %s', (_, row) => {
    const device = detectDevice({ userAgent: row.agent });
    expect({
      operatingSystem: device.operatingSystem,
      inApp: device.inApp?.name ?? null,
      category: device.inApp?.category ?? null,
      mobile: device.mobile,
      bot: device.bot,
    }).toEqual({
      operatingSystem: row.operatingSystem,
      inApp: row.inApp,
      category: row.category,
      mobile: row.mobile,
      bot: false,
    });
  });

  it('leaves the Telegram row a plain browser on the worker (Telegram is only seen in the browser)', () => {
    const telegram = rows.find((row) => row.description.startsWith('Telegram'));
    expect(telegram).toBeDefined();
    expect(detectDevice({ userAgent: telegram?.agent ?? '' }).inApp).toBeNull();
  });
});
