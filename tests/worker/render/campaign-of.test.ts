/**
 * A page's campaign (render/handoff.ts `campaignOf`): read once for the rules, the hand-off and the
 * view of one request, and afresh whenever the key, the token or the query differs.
 */
import { describe, expect, it } from 'vitest';
import { NO_CAMPAIGN } from '../../../shared/campaign.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { campaignOf } from '../../../worker/render/handoff.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';

const ANN = encryptToken(JSON.stringify({ inviter: 'Ann' }), DEV_DECODE_KEY);
const BOB = encryptToken(JSON.stringify({ inviter: 'Bob' }), DEV_DECODE_KEY);
const LANDING = { page: 'landing' } as const;
const url = (query: string): URL => new URL(`https://lander.test/landing${query}`);

describe('campaignOf', () => {
  it('answers the same reading for the same key, token and query', () => {
    const first = campaignOf(url(`?d=${ANN}&channel=mail`), LANDING, DEV_DECODE_KEY, null);
    expect(first.signed).toEqual({ inviter: 'Ann' });
    expect(campaignOf(url(`?d=${ANN}&channel=mail`), LANDING, DEV_DECODE_KEY, null)).toBe(first);
  });

  it('reads again for another query, key or token', () => {
    const first = campaignOf(url(`?d=${ANN}`), LANDING, DEV_DECODE_KEY, null);
    expect(campaignOf(url(`?d=${BOB}`), LANDING, DEV_DECODE_KEY, null).signed).toEqual({ inviter: 'Bob' });
    expect(campaignOf(url(`?d=${ANN}`), LANDING, 'another key', null).signed).toEqual({});
    expect(campaignOf(url(`?d=${ANN}`), LANDING, DEV_DECODE_KEY, BOB).signed).toEqual({ inviter: 'Bob' });
    expect(campaignOf(url(`?d=${ANN}`), LANDING, DEV_DECODE_KEY, null)).toEqual(first);
  });

  it('has no campaign for a page with neither query nor token', () => {
    expect(campaignOf(url(''), LANDING, DEV_DECODE_KEY, null)).toBe(NO_CAMPAIGN);
  });
});
