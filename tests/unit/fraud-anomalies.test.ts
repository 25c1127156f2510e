import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FraudSchema } from '../../shared/config/schema.ts';
import { findAnomalies, type GroupDay } from '../../worker/fraud/anomalies.ts';

const config = v.parse(FraudSchema, {});
const day = (at: string, installs: number, more: Partial<GroupDay> = {}): GroupDay => ({
  day: at,
  channel: 'spring',
  inviter: 'ann',
  installs,
  tooFast: 0,
  topNetwork: 1,
  ...more,
});

describe('anomalies per inviter and channel (docs/fraud.md)', () => {
  it('has the documented defaults', () => {
    expect(config.anomaly).toEqual({
      min_installs: 20,
      history_days: 14,
      spike_factor: 5,
      too_fast_share: 0.5,
      network_share: 0.8,
    });
    expect(config.too_fast_seconds).toBe(10);
  });

  it('never flags a day below min_installs, however lopsided', () => {
    expect(
      findAnomalies([day('2026-11-10', 19, { tooFast: 19, topNetwork: 19 })], '2026-11-10', '2026-11-10', config),
    ).toEqual([]);
  });

  it('counts quiet days as 0 and a mean below 1 as 1: a new inviter spikes above spike_factor installs', () => {
    const spike = findAnomalies([day('2026-11-10', 21)], '2026-11-10', '2026-11-10', config);
    expect(spike).toMatchObject([{ rule: 'spike', observed: 21, threshold: 5 }]);
    expect(spike[0]?.reason).toBe('21 installs, above 5 × the 14-day mean (5.0)');
  });

  it('holds a day against its own history, only inside history_days', () => {
    const history = Array.from({ length: 14 }, (_, at) => day(`2026-11-${String(at + 1).padStart(2, '0')}`, 10));
    const busy = [...history, day('2026-11-15', 50)];
    expect(findAnomalies(busy, '2026-11-15', '2026-11-15', config)).toEqual([]);
    const spiky = [...history, day('2026-11-15', 51)];
    expect(findAnomalies(spiky, '2026-11-15', '2026-11-15', config)).toMatchObject([{ rule: 'spike', threshold: 50 }]);
    // A busy day a month and a half earlier is outside the 14 days: no history, a spike.
    const older = [day('2026-10-01', 1000), day('2026-11-15', 30)];
    expect(findAnomalies(older, '2026-11-15', '2026-11-15', config)).toMatchObject([{ rule: 'spike' }]);
  });

  it('flags a too-fast share and one network at their thresholds, inclusive', () => {
    const found = findAnomalies([day('2026-11-10', 20, { tooFast: 10, topNetwork: 16 })], '2026-11-10', '2026-11-10', {
      ...config,
      anomaly: { ...config.anomaly, spike_factor: 100 },
    });
    expect(found.map((anomaly) => [anomaly.rule, anomaly.observed])).toEqual([
      ['too_fast_share', 0.5],
      ['network_share', 0.8],
    ]);
  });
});
