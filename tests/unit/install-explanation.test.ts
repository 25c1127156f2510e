/**
 * The explanation's figures (worker/attribution/network-report.ts) and its sentences
 * (shared/install-explanation.ts), as pure functions.
 */
import { describe, expect, it } from 'vitest';
import { explanationLines, type TupleField } from '../../shared/install-explanation.ts';
import type { DeviceTuple } from '../../worker/attribution/match-rules.ts';
import { networkReport, type ReportedClick } from '../../worker/attribution/network-report.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const MINUTE = 60_000;
const IPHONE: DeviceTuple = {
  family: 'ios',
  version: '17.5',
  model: null,
  short: 393,
  long: 852,
  scale: 3,
  tz: 'Asia/Shanghai',
  lang: 'zh',
};
const tap = (minutesAgo: number, visitor: string | null, tuple: Partial<DeviceTuple> = {}): ReportedClick => ({
  ...IPHONE,
  ...tuple,
  clickId: `click-${minutesAgo}-${visitor}`,
  at: NOW - minutesAgo * MINUTE,
  visitor,
});
const report = (
  outcome: 'ambiguous' | 'none' | 'expired' | 'matched',
  alike: ReportedClick[],
  others: { field: TupleField; count: number }[] = [],
) => networkReport({ outcome, tuple: IPHONE, now: NOW, windowMs: 120 * MINUTE, alike, others });

describe('networkReport', () => {
  it('counts candidates, people (a visitor id is one person) and the minutes between them', () => {
    expect(report('ambiguous', [tap(1, 'ann'), tap(3, 'ann'), tap(5, null)])).toMatchObject({
      taps: 3,
      candidates: 3,
      people: 2,
      spanMinutes: 4,
      ageMinutes: 1,
      expired: 0,
    });
  });

  it('says "within 1 minute" for taps seconds apart, never 0', () => {
    const close = [tap(2, 'ann'), { ...tap(2, 'bob'), at: NOW - 2 * MINUTE + 5000 }];
    expect(report('ambiguous', close).spanMinutes).toBe(1);
  });

  it('dates expired look-alikes by the newest of them, and counts the first fact the others differed by', () => {
    const result = report(
      'expired',
      [tap(200, null), tap(150, null), tap(10, null, { short: 320 }), tap(5, null, { version: '18.1' })],
      [{ field: 'os', count: 2 }],
    );
    expect(result).toMatchObject({
      taps: 6,
      candidates: 0,
      expired: 2,
      ageMinutes: 150,
      differ: { os: 2, screen: 1, osVersion: 1 },
    });
  });
});

describe('explanationLines', () => {
  const explanation = {
    carriers: [{ source: 'clipboard', verdict: 'bad-signature' }] as const,
    network: report('none', [tap(10, null, { tz: 'Europe/Berlin' })]),
  };

  it('words it in English', () => {
    expect(explanationLines({ ...explanation, carriers: [...explanation.carriers] })).toEqual([
      'Clipboard: campaign signature does not verify',
      '1 unclaimed tap on this network (window 120 min).',
      'No tap on this network looks like this device.',
      'Taps unlike this device: time zone 1.',
    ]);
  });

  it('words it in Chinese, with Chinese punctuation', () => {
    const lines = explanationLines({ ...explanation, carriers: [...explanation.carriers] }, 'zh-CN');
    expect(lines[0]).toBe('剪贴板：活动签名校验失败');
    expect(lines.at(-1)).toBe('与此设备不同的点击：时区 1。');
  });
});
