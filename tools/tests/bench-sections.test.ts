/** Which sections `npm run bench` (the budget part) and `npm run bench:lab` run, and `--only`. */
import { describe, expect, it } from 'vitest';
import { benchFlags, selected } from '../bench/run-bench.ts';
import { BUDGET_SECTIONS, labSections } from '../bench/sections.ts';

const titles = (sections: { title: string }[]): string[] => sections.map(({ title }) => /^\w+/.exec(title)?.[0] ?? '');

describe('bench sections', () => {
  it('keeps sizes, the page against a static file and Lighthouse in the budget part, the lab out of it', () => {
    const budget = titles(BUDGET_SECTIONS);
    expect(budget).toEqual(expect.arrayContaining(['Sizes', 'HTTP', 'Lighthouse']));
    for (const lab of ['Traffic', 'CPU', 'Peers', 'Load', 'Memory', 'Initial', 'Main'])
      expect(budget).not.toContain(lab);
    expect(BUDGET_SECTIONS.every((section) => !labSections({ load: false }).includes(section))).toBe(true);
  });

  it('runs the exploratory figures by default, the load modes and a 300 s soak with --load, only the soak with --soak', () => {
    expect(titles(labSections(benchFlags([])))).toEqual(['Initial', 'Traffic', 'CPU', 'Peers', 'Builds', 'Main']);
    const loadModes = [/^Load modes/, /^One hot network/, /^Bursts/].map((title) => expect.stringMatching(title));
    const load = labSections(benchFlags(['--load']));
    expect(load.map(({ title }) => title)).toEqual([...loadModes, expect.stringMatching(/^Memory soak \(300 s/)]);
    expect(labSections(benchFlags(['--load', '--soak', '60'])).map(({ title }) => title)).toEqual([
      ...loadModes,
      expect.stringMatching(/^Memory soak \(60 s/),
    ]);
    expect(labSections(benchFlags(['--soak', '30'])).map(({ title }) => title)).toEqual([
      expect.stringMatching(/^Memory soak \(30 s/),
    ]);
  });

  it('keeps only the sections whose title has one of --only’s words', () => {
    expect(titles(selected(BUDGET_SECTIONS, 'lighthouse,SIZES'))).toEqual(['Sizes', 'Lighthouse']);
    expect(selected(BUDGET_SECTIONS, undefined)).toEqual(BUDGET_SECTIONS);
  });
});
