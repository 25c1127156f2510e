import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaignField, campaignFields, campaignQuery } from '../../shared/campaign.ts';
import { QUERY_LIMITS, readCampaign } from '../../worker/campaign/query-data.ts';
import { encryptToken } from '../../worker/campaign/token.ts';

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
    expect(campaignOf(`?d=${d}&inviter=forged&utm=x`)).toEqual({
      signed: { channel: 'spring', inviter: 'Bo' },
      plain: { inviter: 'forged', utm: 'x' },
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

  it('bounds the number of plain parameters and their sizes', () => {
    const many = Array.from({ length: 50 }, (_, i) => `k${i}=v`).join('&');
    expect(Object.keys(campaignOf(`?${many}`).plain)).toHaveLength(QUERY_LIMITS.maxParams);
    const long = campaignOf(`?a=${'x'.repeat(QUERY_LIMITS.maxValueLength + 1)}&${'k'.repeat(40)}=1&ok=1`);
    expect(long.plain).toEqual({ ok: '1' });
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
