/**
 * The links room's experiment cell (client/app/admin/links/experiments.tsx): "no winner yet", or the
 * winner, its lift and interval, in English and in Chinese.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { ExperimentCell, experimentText, signedPercent } from '../../client/app/admin/links/experiments.tsx';
import type { ExperimentView, Verdict } from '../../shared/variants.ts';

const experiment = (verdict: ExperimentView['arms'][number]['verdict']): ExperimentView => ({
  slug: 'spring',
  outcome: 'installs',
  alpha: 0.05,
  arms: [
    { name: 'a', weight: 1, visitors: 4000, installs: 400, events: 0, verdict: null },
    { name: 'b', weight: 1, visitors: 4000, installs: 448, events: 0, verdict },
  ],
});
const WIN: Verdict = { kind: 'winner', winner: 'b', lift: 0.12, interval: [0.031, 0.209] };
const LOSS: Verdict = { kind: 'winner', winner: 'a', lift: -0.09, interval: [-0.15, -0.03] };

describe('the experiment cell', () => {
  it('says "no winner yet", or the winner with its lift and interval, in English', () => {
    const t = adminTexts('en');
    expect(experimentText(experiment({ kind: 'no-winner-yet' }), t)).toBe('no winner yet');
    expect(experimentText(experiment(WIN), t)).toBe('b wins, +12 % [+3 %, +21 %]');
    expect(experimentText(experiment(LOSS), t)).toBe('a wins over b, −9 % [−15 %, −3 %]');
  });

  it('says the same in Chinese', () => {
    const t = adminTexts('zh-CN');
    expect(experimentText(experiment({ kind: 'no-winner-yet' }), t)).toBe('尚无胜出者');
    expect(experimentText(experiment(WIN), t)).toBe('b 胜出，+12 % [+3 %, +21 %]');
  });

  it('shows each variant’s outcomes over its visitors on hover, and nothing for a link without variants', () => {
    const t = adminTexts('en');
    expect(renderToStaticMarkup(<ExperimentCell experiment={experiment(WIN)} t={t} />)).toBe(
      '<span class="experiment" title="Installs per visitor — a: 400 / 4000, b: 448 / 4000">b wins, +12 % [+3 %, +21 %]</span>',
    );
    expect(renderToStaticMarkup(<ExperimentCell experiment={undefined} t={t} />)).toBe('');
  });

  it('rounds to whole percents with the sign', () => {
    expect([0.004, -0.004, 0.125, -0.2].map(signedPercent)).toEqual(['0 %', '0 %', '+13 %', '−20 %']);
  });
});
