import { describe, expect, it } from 'vitest';
import { AD_CLICK_PARAM_NAMES, adClickOf } from '../../shared/ad-clicks.ts';

describe('the ad click of a page address (docs/conversions.md#ad-click-ids)', () => {
  it('keeps each network click parameter present, its first value', () => {
    const params = new URLSearchParams('?fbclid=IwAR0&gclid=Cj0&gclid=second&clickid=B.1&bd_vid=9&utm_source=x');
    expect(adClickOf(params)).toEqual({ fbclid: 'IwAR0', gclid: 'Cj0', clickid: 'B.1', bd_vid: '9' });
  });

  it('has nothing for an address without one, and drops values that are empty, too long or not printable', () => {
    expect(adClickOf(new URLSearchParams('?channel=spring'))).toBeUndefined();
    const bad = new URLSearchParams({ fbclid: '', ttclid: 'x'.repeat(1025), gclid: 'has space', wbraid: 'ok' });
    expect(adClickOf(bad)).toEqual({ wbraid: 'ok' });
  });

  it('names the parameters of Ocean Engine, Tencent Ads, Kuaishou and Baidu', () => {
    expect(AD_CLICK_PARAM_NAMES).toEqual(
      expect.arrayContaining(['clickid', 'callback', 'gdt_vid', 'qz_gdt', 'bd_vid']),
    );
  });
});
