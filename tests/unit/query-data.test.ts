import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaignField, campaignFields, campaignQuery } from '../../shared/campaign.ts';
import { pageQuery, QUERY_LIMITS, readCampaign } from '../../worker/campaign/query-data.ts';
import { encryptToken, MAX_TOKEN_LENGTH } from '../../worker/campaign/token.ts';

const KEY = 'LanderDevKey2026';
const campaignOf = (query: string, key: string | undefined = KEY) => readCampaign(new URLSearchParams(query), key);
const tokenOf = (fields: Record<string, string>) => encryptToken(JSON.stringify(fields), KEY);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the campaign of a query', () => {
  it('reads plain parameters as plain', () => {
    expect(campaignOf('?channel=mail&inviter=Ann')).toEqual({ signed: {}, plain: { channel: 'mail', inviter: 'Ann' } });
  });

  it("keeps the token's fields and the plain parameters apart", () => {
    const d = tokenOf({ channel: 'spring', inviter: 'Bo' });
    expect(campaignOf(`?d=${d}&inviter=forged&channel=x`)).toEqual({
      signed: { channel: 'spring', inviter: 'Bo' },
      plain: { inviter: 'forged', channel: 'x' },
      token: d,
    });
  });

  it('ignores a token that does not decrypt, keeping the plain parameters, and never hands it on', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(campaignOf('?d=garbage&channel=mail')).toEqual({ signed: {}, plain: { channel: 'mail' } });
  });

  it('refuses a decrypted payload that is not a flat object of short strings', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const payload of ['[1,2]', '{"a":{"b":1}}', `{"a":"${'x'.repeat(300)}"}`, 'not json']) {
      expect(campaignOf(`?d=${encryptToken(payload, KEY)}`).signed).toEqual({});
    }
    expect(error).toHaveBeenCalledWith('Decryption failed', expect.any(String));
  });

  it('takes no field named like an object prototype, in the token or beside it', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const name of ['__proto__', 'prototype', 'constructor']) {
      const d = encryptToken(`{"${name}":"x","channel":"spring"}`, KEY);
      expect(campaignOf(`?d=${d}&${name}=y&inviter=Ann`)).toEqual({ signed: {}, plain: { inviter: 'Ann' } });
    }
  });

  it('reads only channel and inviter as plain parameters: tracking and unknown ones are left out', () => {
    const query = '?utm_source=ad&fbclid=IwAR&gclid=Cj0&ttclid=t&campaign=42&channel=mail&x=1&inviter=Ann';
    expect(campaignOf(query).plain).toEqual({ channel: 'mail', inviter: 'Ann' });
  });

  it('takes the first value of a repeated plain parameter', () => {
    expect(campaignOf('?channel=first&channel=second').plain).toEqual({ channel: 'first' });
  });

  it('bounds the size of a plain parameter', () => {
    const long = campaignOf(`?channel=${'x'.repeat(QUERY_LIMITS.maxValueLength + 1)}&inviter=Ann`);
    expect(long.plain).toEqual({ inviter: 'Ann' });
  });

  it('reads no token without a key', () => {
    const params = new URLSearchParams(`?d=${tokenOf({ channel: 'spring' })}`);
    expect(readCampaign(params, undefined)).toEqual({ signed: {}, plain: {} });
  });
});

describe('what a page shows of a campaign', () => {
  const d = tokenOf({ inviter: 'Ann' });

  it("shows the token's field, never a plain parameter of the same name", () => {
    const campaign = campaignOf(`?d=${d}&inviter=Mallory`);
    expect(campaignField(campaign, 'inviter')).toBe('Ann');
    expect(campaignFields(campaign)).toEqual({ inviter: 'Ann' });
  });

  it('shows a plain parameter only for a field the token does not name', () => {
    const campaign = campaignOf(`?d=${d}&channel=mail`);
    expect(campaignField(campaign, 'channel')).toBe('mail');
    expect(campaignFields(campaign)).toEqual({ inviter: 'Ann', channel: 'mail' });
  });

  it('hands on the token itself and the plain parameters, never the decrypted fields as plain ones', () => {
    expect(campaignQuery(campaignOf(`?d=${d}&channel=mail`))).toEqual({ channel: 'mail', d });
    expect(campaignQuery(campaignOf('?channel=mail'))).toEqual({ channel: 'mail' });
  });
});

describe('the query a page is made from', () => {
  const d = tokenOf({ channel: 'spring' });

  it('keeps the token and the plain parameters, in one order, and leaves out every other parameter', () => {
    const params = new URLSearchParams(
      `?utm_source=ad&inviter=Ann&fbclid=IwAR&GCLID=Cj0&d=${d}&msclkid=m&channel=spring&campaign=42`,
    );
    expect(pageQuery(params)).toBe(`?d=${d}&channel=spring&inviter=Ann`);
  });

  it('is empty when only tracking parameters are there', () => {
    expect(pageQuery(new URLSearchParams('?fbclid=1&utm_medium=mail'))).toBe('');
  });

  it('takes the first value of each and leaves out a value the page would drop', () => {
    const long = 'x'.repeat(QUERY_LIMITS.maxValueLength + 1);
    expect(pageQuery(new URLSearchParams(`?channel=a&channel=b&inviter=${long}`))).toBe('?channel=a');
  });

  it('leaves out a token too long to read', () => {
    expect(pageQuery(new URLSearchParams(`?d=${'A'.repeat(MAX_TOKEN_LENGTH + 1)}&channel=a`))).toBe('?channel=a');
  });
});
