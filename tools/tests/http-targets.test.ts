/** The page-speed targets' budget rows (tools/bench/http-targets.ts). */
import { describe, expect, it } from 'vitest';
import type { BenchContext } from '../bench/context.ts';
import { budgetRow, describeTarget, roundRatios, TARGETS, targets } from '../bench/http-targets.ts';
import type { Served } from '../bench/serve.ts';

describe('a target row', () => {
  it('is within an at-most budget up to the limit and over it above', () => {
    expect(budgetRow('r', TARGETS.miss, '≤', TARGETS.miss)).toEqual({
      name: 'r',
      value: '4.00',
      budget: { limit: '≤ 4', ok: true },
    });
    expect(budgetRow('r', 4.01, '≤', TARGETS.miss).budget?.ok).toBe(false);
  });

  it('is within an at-least budget from the limit up and over it below', () => {
    expect(budgetRow('r', 0.9, '≥', TARGETS.keptRequests).budget).toEqual({ limit: '≥ 0.9', ok: true });
    expect(budgetRow('r', 0.89, '≥', TARGETS.keptRequests).budget?.ok).toBe(false);
  });

  it('has no budget to pass when the platform gave no CPU figure', () => {
    expect(budgetRow('r', undefined, '≤', 1.5)).toEqual({ name: 'r', value: 'not measured on this platform' });
    expect(budgetRow('r', Number.NaN, '≤', 1.5).budget).toBeUndefined();
  });

  it('tells a page load how many pages were kept and rendered', () => {
    const load = {
      tool: 'wrk' as const,
      requestsPerSecond: 10,
      requests: 30,
      p50: 1,
      p99: 2,
      non2xx3xx: 0,
      socketErrors: 0,
    };
    expect(describeTarget({ load: { ...load, kept: { hit: 0, miss: 30 } }, cpuMs: 1.25 })).toMatch(
      /1\.250 ms CPU\/request; kept 0, rendered 30$/,
    );
    expect(describeTarget({ load: { ...load, kept: { hit: 0, miss: 0 } } })).not.toContain('kept');
  });
});

describe("a target's rounds", () => {
  it('reads each round against the mean of the floors right before and after it, and picks the median round', () => {
    // Floors 0.2, 0.3, 0.2, 0.4 around three rounds: ratios 2/0.25, 1/0.25, 1.5/0.3.
    const rounds = roundRatios([2, 1, 1.5], [0.2, 0.3, 0.2, 0.4]);
    expect(rounds?.ratios.map((r) => r.toFixed(2))).toEqual(['8.00', '4.00', '5.00']);
    expect(rounds?.median).toBe(2);
  });

  it('has no ratio when a figure is missing', () => {
    expect(roundRatios([1, undefined], [0.2, 0.2, 0.2])).toBeUndefined();
    expect(roundRatios([1], [0.2])).toBeUndefined();
    expect(roundRatios([], [0.2])).toBeUndefined();
  });
});

describe('the targets', () => {
  const context: BenchContext = {
    url: 'http://127.0.0.1:1',
    server: { floorMissUrl: 'http://127.0.0.1:2' } as Served,
    duration: 1,
    connections: 1,
    threads: 1,
  };

  it("measure the first visitor's floor right after the miss, on its own socket, and divide the miss by it", () => {
    const [miss, floor] = targets(context);
    expect(miss?.limit).toBe(TARGETS.miss);
    expect(floor?.load.url).toBe('http://127.0.0.1:2');
    expect(floor?.probe.origin).toBe('http://127.0.0.1:2');
    expect(floor?.limit).toBeUndefined();
    expect(floor?.divides?.name).toBe(miss?.name);
  });
});
