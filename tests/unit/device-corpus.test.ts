/**
 * Every real agent of tests/fixtures/ua-corpus.tsv (docs/device.md) is classified as the corpus
 * says: operating system, in-app name and category, mobile — and none is taken for a bot.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDevice } from '../../shared/device.ts';

interface CorpusRow {
  id: string;
  operatingSystem: string;
  inApp: string | null;
  category: string | null;
  mobile: boolean;
  description: string;
  agent: string;
}

const CORPUS = new URL('../fixtures/ua-corpus.tsv', import.meta.url);

function readCorpus(): CorpusRow[] {
  const [header, ...lines] = readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean);
  expect(header?.split('\t').slice(0, 7)).toEqual([
    'id',
    'operatingSystem',
    'inApp',
    'inAppCategory',
    'mobile',
    'description',
    'ua',
  ]);
  return lines.map((line) => {
    const [id = '', operatingSystem = '', inApp = '', category = '', mobile = '', description = '', agent = ''] =
      line.split('\t');
    return {
      id,
      operatingSystem,
      inApp: inApp === '-' ? null : inApp,
      category: category === '-' ? null : category,
      mobile: mobile === 'true',
      description,
      agent,
    };
  });
}

const rows = readCorpus();

describe('the user-agent corpus', () => {
  it('holds every agent of the corpus file, each with an agent string', () => {
    // 52 numbered agents and 10 HarmonyOS ones (H1–H10) under the header line.
    expect(rows).toHaveLength(62);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) expect(row.agent).toMatch(/^Mozilla\/5\.0 \(/);
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
