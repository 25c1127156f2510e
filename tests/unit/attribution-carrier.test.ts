import { describe, expect, it, vi } from 'vitest';
import { CARRIER_SLOT, carrierOf, fillCarrier } from '../../shared/attribution.ts';
import { carrierIn, carrierToken, isClickId, resolveCarrier } from '../../worker/attribution/carrier.ts';
import { encryptToken } from '../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../worker/settings.ts';

const CLICK = 'AAECAwQFBgcICQoLDA0ODw';
const token = encryptToken(JSON.stringify({ channel: 'spring', inviter: 'ann' }), DEV_DECODE_KEY);

describe('carriers', () => {
  it('are the click id, then the token after a dot', () => {
    expect(carrierOf(CLICK, token)).toBe(`${CLICK}.${token}`);
    expect(carrierOf(CLICK)).toBe(CLICK);
  });

  it('fill every slot of a link template', () => {
    expect(fillCarrier(`https://a/i/${CARRIER_SLOT}?r=${CARRIER_SLOT}`, 'c1')).toBe('https://a/i/c1?r=c1');
  });

  it("resolve to the click and the token's campaign, with no lookup", () => {
    expect(resolveCarrier(`${CLICK}.${token}`, DEV_DECODE_KEY)).toEqual({
      clickId: CLICK,
      data: { channel: 'spring', inviter: 'ann' },
      token,
    });
  });

  it('are found inside a pasted text or a URL', () => {
    expect(carrierIn(`Try this https://lander.example/i/${CLICK}.${token} !`)).toBe(`${CLICK}.${token}`);
    expect(carrierToken(`https://lander.example/i/${CLICK}.${token}`)).toBe(token);
  });

  it('refuse a tampered token (never its data)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(resolveCarrier(`${CLICK}.${forged}`, DEV_DECODE_KEY)).toBeNull();
  });

  it('refuse a click id that is not 16 bytes spelled one way', () => {
    expect(isClickId(CLICK)).toBe(true);
    // The last character's spare bits set: the same bytes spelled another way.
    expect(isClickId('AAECAwQFBgcICQoLDA0ODx')).toBe(false);
    expect(resolveCarrier('short', DEV_DECODE_KEY)).toBeNull();
  });
});
