import { describe, expect, it } from 'vitest';
import { clickIdSupply } from '../../client/browser/attribution/click-beacon.ts';
import { CLICK_ID } from '../../shared/attribution.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('clickIdSupply', () => {
  it("hands out the worker's ids in order and asks again while one is left", async () => {
    let asked = 0;
    const batches = [
      ['A'.repeat(22), 'B'.repeat(22)],
      ['C'.repeat(22), 'D'.repeat(22)],
    ];
    const next = clickIdSupply(async () => batches[asked++] ?? []);
    await settle();
    expect(asked).toBe(1);
    expect(next()).toBe('A'.repeat(22));
    expect(asked).toBe(2);
    await settle();
    expect(next()).toBe('B'.repeat(22));
    expect(next()).toBe('C'.repeat(22));
  });

  it('makes its own id for a tap before any arrived, or when the worker cannot be asked', async () => {
    const early = clickIdSupply(() => new Promise(() => {}));
    expect(early()).toMatch(CLICK_ID);
    const failing = clickIdSupply(async () => {
      throw new Error('offline');
    });
    await settle();
    expect(failing()).toMatch(CLICK_ID);
  });
});
