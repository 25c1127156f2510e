import { describe, expect, it } from 'vitest';
import { networkOf } from '../../worker/attribution/network.ts';

describe('networkOf: the /24 or /64 an address belongs to', () => {
  it.each([
    ['203.0.113.7', '4:203.0.113', '4:203.0.113.7'],
    [' 203.0.113.7 ', '4:203.0.113', '4:203.0.113.7'],
    ['2001:db8::1', '6:2001:db8:0:0', '6:2001:db8:0:0:0:0:0:1'],
    ['2001:DB8:0:1:2:3:4:5', '6:2001:db8:0:1', '6:2001:db8:0:1:2:3:4:5'],
    ['2001:0db8:0000:0001::', '6:2001:db8:0:1', '6:2001:db8:0:1:0:0:0:0'],
    ['::ffff:203.0.113.9', '4:203.0.113', '4:203.0.113.9'],
  ])('%s is in %s', (address, prefix, whole) => {
    expect(networkOf(address)).toEqual({ prefix, address: whole });
  });

  it('writes one address one way only, however it was spelled', () => {
    expect(networkOf('2001:db8:0:0:0:0:0:1')).toEqual(networkOf('2001:DB8::1'));
  });

  it.each([
    '',
    'abc',
    '256.1.1.1',
    '1.2.3',
    '1::2::3',
    'fe80::1%eth0',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8',
    '::ffff:1.2.3.999',
  ])('is null for %j', (address) => {
    expect(networkOf(address)).toBeNull();
  });

  it('is null without an address', () => {
    expect(networkOf(undefined)).toBeNull();
    expect(networkOf(null)).toBeNull();
  });
});
