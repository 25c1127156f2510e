/** The console's Fraud panel (docs/fraud.md): groups with their flags, anomalies, the drill-down's reasons. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FraudView } from '../../client/app/admin/fraud/fraud-panel.tsx';
import { fraudTexts } from '../../client/app/admin/fraud/fraud-texts.ts';
import type { FraudReport } from '../../shared/fraud-contract.ts';

const report: FraudReport = {
  from: '2026-11-20',
  to: '2026-11-26',
  excluded: ['self_referral'],
  groups: [
    { channel: 'spring', inviter: 'zed', installs: 30, flagged: 21, byRule: { too_fast: 20, self_referral: 1 } },
    { channel: 'spring', inviter: '', installs: 4, flagged: 0, byRule: {} },
  ],
  anomalies: [
    {
      day: '2026-11-25',
      channel: 'spring',
      inviter: 'zed',
      rule: 'network_share',
      installs: 30,
      observed: 0.9,
      threshold: 0.8,
      reason: '90 % of installs from one network (threshold 80 %)',
    },
  ],
  installs: [
    {
      install: 'AbCdEfGhIjKl',
      at: '2026-11-25T10:00:00.000Z',
      channel: 'spring',
      inviter: 'zed',
      method: 'referrer',
      flags: [{ rule: 'too_fast', reason: 'first launch 2.0 s after the click (floor 10 s)' }],
    },
  ],
};

const view = (language: 'en' | 'zh-CN', chosen: { inviter: string; channel: string } | null = null) =>
  renderToStaticMarkup(
    <FraudView
      t={fraudTexts(language)}
      report={report}
      drill={null}
      chosen={chosen}
      error=""
      onChoose={() => undefined}
    />,
  );

describe('the Fraud panel', () => {
  it('shows each inviter and channel with raw and flagged installs by rule, a drill-down only where flagged', () => {
    const html = view('en');
    expect(html).toContain(
      '<td data-label="Inviter">zed</td><td data-label="Channel">spring</td><td data-label="Installs">30</td>' +
        '<td data-label="Flagged">21</td><td data-label="Rule">Too fast 20, Self-referral 1</td>',
    );
    expect(html).toContain(
      '<td data-label="Inviter">(none)</td><td data-label="Channel">spring</td><td data-label="Installs">4</td>' +
        '<td data-label="Flagged">0</td><td data-label="Rule"></td><td data-label=""></td>',
    );
    expect(html.match(/Show why/g)).toHaveLength(1);
    expect(html).toContain('Left out of the counted installs: Self-referral');
  });

  it('lists the anomalies and each flagged install with its reasons', () => {
    const html = view('en', { inviter: 'zed', channel: 'spring' });
    expect(html).toContain(
      '<td data-label="Rule">One network</td><td data-label="Why">90 % of installs from one network (threshold 80 %)</td>',
    );
    expect(html).toContain('<strong>Too fast</strong>: first launch 2.0 s after the click (floor 10 s)');
    expect(html).toContain('Flagged installs · zed / spring');
    expect(view('zh-CN')).toContain('作弊标记');
  });
});
