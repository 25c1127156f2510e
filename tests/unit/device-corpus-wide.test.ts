/**
 * Detection measured on agents labelled by others (docs/device.md, "Measured accuracy"): the sets of
 * tests/fixtures/ua-labelled-sets.ts, each with its own labels. The targets are asserted on the sets
 * of today's traffic together; every set's misses per measure, the older sets' too, are held at the
 * figures docs/device.md publishes, so a regression in any one set fails. The figures and the misses
 * are printed for the docs.
 */
import { describe, expect, it } from 'vitest';
import { type DeviceInfo, detectDevice } from '../../shared/device.ts';
import { type LabelledAgent, labelledSets } from '../fixtures/ua-labelled-sets.ts';

/** The measures, each over the rows its label is given for. */
const MEASURES = {
  os: {
    title: 'OS right',
    labelled: (row: LabelledAgent) => row.operatingSystem !== undefined,
    right: (row: LabelledAgent, device: DeviceInfo) => device.operatingSystem === row.operatingSystem,
  },
  mobile: {
    title: 'mobile right',
    labelled: (row: LabelledAgent) => row.mobile !== undefined,
    right: (row: LabelledAgent, device: DeviceInfo) => device.mobile === row.mobile,
  },
  crawlers: {
    title: 'crawlers taken for bots',
    labelled: (row: LabelledAgent) => row.bot === true,
    right: (_: LabelledAgent, device: DeviceInfo) => device.bot,
  },
  people: {
    title: 'people not taken for bots',
    labelled: (row: LabelledAgent) => row.bot === false,
    right: (_: LabelledAgent, device: DeviceInfo) => !device.bot,
  },
  inApp: {
    title: 'in-app named right',
    labelled: (row: LabelledAgent) => typeof row.inApp === 'string',
    right: (row: LabelledAgent, device: DeviceInfo) => device.inApp?.name === row.inApp,
  },
  plain: {
    title: 'plain browsers not taken for in-app',
    labelled: (row: LabelledAgent) => row.inApp === null,
    right: (_: LabelledAgent, device: DeviceInfo) => device.inApp === null,
  },
} as const;
type Measure = keyof typeof MEASURES;

/** The share of rows each measure must get right over today's traffic (the targets of docs/device.md). */
const TARGETS: Record<Measure, number> = {
  os: 0.9995,
  mobile: 0.997,
  crawlers: 0.995,
  people: 0.999,
  inApp: 0.995,
  plain: 1,
};

/** The sets of today's agents; the others hold agents from 2000 to about 2017 (docs/device.md). */
const CURRENT = new Set([
  'user-agents',
  'crawler-user-agents',
  'researched in-app',
  'researched people',
  'top-user-agents',
]);

/** The misses docs/device.md publishes per set and measure; more is a regression. */
const PUBLISHED_MISSES: Record<string, Partial<Record<Measure, number>>> = {
  'user-agents': {},
  'crawler-user-agents': { crawlers: 9 },
  'researched in-app': {},
  'researched people': {},
  'top-user-agents': {},
  woothee: { people: 1 },
  'ua-parser': {},
  'random-useragent': { os: 2, mobile: 4, people: 1 },
};

interface Tally {
  total: number;
  misses: string[];
}

const sets = labelledSets().map((set) => {
  const tallies = Object.fromEntries(
    Object.keys(MEASURES).map((measure) => [measure, { total: 0, misses: [] } as Tally]),
  ) as Record<Measure, Tally>;
  for (const row of set.rows) {
    const device = detectDevice({ userAgent: row.agent });
    for (const [measure, { labelled, right }] of Object.entries(MEASURES) as [Measure, (typeof MEASURES)[Measure]][]) {
      if (!labelled(row)) continue;
      tallies[measure].total += 1;
      if (!right(row, device)) tallies[measure].misses.push(row.agent);
    }
  }
  return { ...set, tallies };
});

const measures = Object.keys(MEASURES) as Measure[];
const pooled = (measure: Measure, over = sets) => {
  const total = over.reduce((sum, set) => sum + set.tallies[measure].total, 0);
  const misses = over.reduce((sum, set) => sum + set.tallies[measure].misses.length, 0);
  return { total, misses, share: total === 0 ? 1 : (total - misses) / total };
};
const current = sets.filter((set) => CURRENT.has(set.name));
const percent = (value: number): string => `${(value * 100).toFixed(2)} %`;
const cell = ({ total, misses }: { total: number; misses: number }): string =>
  total === 0 ? '—' : `${percent((total - misses) / total)} of ${total}${misses ? ` (${misses} missed)` : ''}`;

describe('detection on independently labelled agents', () => {
  it('reads every set, each large enough to count', () => {
    const header = `| Set | ${measures.map((measure) => MEASURES[measure].title).join(' | ')} |`;
    const rows = sets.map(
      (set) =>
        `| ${set.name} (${set.rows.length}) | ${measures.map((measure) => cell({ total: set.tallies[measure].total, misses: set.tallies[measure].misses.length })).join(' | ')} |`,
    );
    const today = `| today's traffic | ${measures.map((measure) => cell(pooled(measure, current))).join(' | ')} |`;
    const all = `| all sets | ${measures.map((measure) => cell(pooled(measure))).join(' | ')} |`;
    const misses = sets.flatMap((set) =>
      measures.flatMap((measure) => set.tallies[measure].misses.map((agent) => `${set.name} ${measure}: ${agent}`)),
    );
    const setAside = sets.flatMap((set) => set.setAside.map((agent) => `${set.name} set aside: ${agent}`));
    console.info([header, ...rows, today, all, '', ...misses, '', ...setAside].join('\n'));
    expect(sets.map((set) => set.name)).toEqual(Object.keys(PUBLISHED_MISSES));
    for (const set of sets) expect(set.rows.length).toBeGreaterThan(20);
    expect(pooled('os').total).toBeGreaterThan(1500);
    expect(pooled('mobile').total).toBeGreaterThan(1500);
    expect(pooled('crawlers').total).toBeGreaterThan(2000);
    expect(pooled('people').total).toBeGreaterThan(2000);
    expect(pooled('inApp').total).toBeGreaterThan(90);
    expect(pooled('people', current).total).toBeGreaterThan(1000);
    expect(pooled('plain').total).toBeGreaterThan(1400);
  });

  it.each(measures)("reaches the target for %s on today's traffic", (measure) => {
    expect(current).toHaveLength(CURRENT.size);
    expect(pooled(measure, current).share).toBeGreaterThanOrEqual(TARGETS[measure]);
  });

  it.each(sets.map((set) => [set.name, set] as const))('misses no more in %s than docs/device.md says', (_, set) => {
    for (const measure of measures) {
      expect(set.tallies[measure].misses.length, measure).toBeLessThanOrEqual(
        PUBLISHED_MISSES[set.name]?.[measure] ?? 0,
      );
    }
  });

  it('classifies every researched phone and browser as its report says, a person and no app', () => {
    const researched = sets.find((set) => set.name === 'researched people');
    expect(researched?.rows.length).toBeGreaterThan(20);
    const wrong = (researched?.rows ?? []).filter((row) => {
      const device = detectDevice({ userAgent: row.agent });
      return (
        device.operatingSystem !== row.operatingSystem || device.mobile !== row.mobile || device.bot || device.inApp
      );
    });
    expect(wrong.map((row) => row.agent)).toEqual([]);
  });
});
