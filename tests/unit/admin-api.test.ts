/**
 * The console's calls (client/app/admin/admin-api.ts, client/app/admin/shared/admin-client.ts,
 * docs/operators.md): signed in with a token, each call carries it; behind Cloudflare Access (no
 * token), none carries an Authorization header, so Access's own assertion is what signs it in. A
 * refused call shows the API's message.
 */

import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../../client/app/admin/admin-api.ts';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { errorText } from '../../client/app/admin/shared/admin-client.ts';
import { type HttpClient, HttpError, type HttpOptions } from '../../client/app/http-client.ts';

function recordingClient(answer: unknown): { client: HttpClient; calls: [string, HttpOptions | undefined][] } {
  const calls: [string, HttpOptions | undefined][] = [];
  const client = (async (url: string, options?: HttpOptions) => {
    calls.push([url, options]);
    return answer;
  }) as HttpClient;
  return { client, calls };
}

const RANGE = { from: '2026-11-01', to: '2026-11-07' };

describe('the console’s admin API calls', () => {
  it('ask for the stats of the range and grouping with the bearer token', async () => {
    const { client, calls } = recordingClient({ rows: [] });
    await adminApi('secret-token', client).stats('inviter', RANGE);
    expect(calls).toEqual([
      ['/api/stats?from=2026-11-01&to=2026-11-07&by=inviter', { headers: { authorization: 'Bearer secret-token' } }],
    ]);
  });

  it('carry no Authorization header without a token (Cloudflare Access signs them in)', async () => {
    const { client, calls } = recordingClient({ links: [] });
    await adminApi(null, client).links();
    expect(calls).toEqual([['/api/links', { headers: {} }]]);
  });

  it('post a new link as JSON', async () => {
    const { client, calls } = recordingClient({ slug: 'spring' });
    await adminApi('t', client).createLink({ channel: 'spring-sale', slug: 'spring' });
    expect(calls[0]?.[1]).toMatchObject({ method: 'POST', body: { channel: 'spring-sale', slug: 'spring' } });
  });
});

describe('errorText', () => {
  const en = adminTexts('en');
  const zh = adminTexts('zh-CN');
  const taken = new HttpError(409, { cause: { data: { error: 'the slug "spring" is taken' } } });

  it('is the API’s own message of a refused call, in English', () => {
    expect(errorText(taken, en)).toBe('the slug "spring" is taken');
  });

  it('leads the API’s message with what the status means in Chinese', () => {
    expect(errorText(taken, zh)).toBe('与已有数据冲突：the slug "spring" is taken');
    const invalid = new HttpError(400, { cause: { data: { error: 'slug: slug is 3 to 48 of a-z, 0-9 and -' } } });
    expect(errorText(invalid, zh)).toBe('请求无效：slug: slug is 3 to 48 of a-z, 0-9 and -');
  });

  it('says what the status means when the answer says nothing', () => {
    expect(errorText(new HttpError(502), en)).toBe('The server failed (HTTP 502).');
    expect(errorText(new HttpError(502), zh)).toBe('服务器出错（HTTP 502）。');
    expect(errorText(new HttpError(401), zh)).toBe('请重新登录：令牌被拒绝。');
    expect(errorText(new HttpError(418), en)).toBe('Refused (HTTP 418).');
  });

  it('is a panel’s own words for a status it knows the meaning of', () => {
    expect(errorText(taken, zh, { 409: zh.slugTaken })).toBe('这个短链标识已被使用，请换一个。');
    expect(errorText(new HttpError(502), zh, { 409: zh.slugTaken })).toBe('服务器出错（HTTP 502）。');
  });

  it('says a fault of the console itself as the console’s, not as an unreachable server', () => {
    expect(errorText(new Error('boom'), en)).toBe('The console failed (boom).');
    expect(errorText(new RangeError('bad date'), zh)).toBe('控制台出错：bad date');
    const unreached = new FetchError('[GET] "/api/stats": <no response> Failed to fetch');
    expect(errorText(unreached, zh)).toBe('无法连接服务器：[GET] "/api/stats": <no response> Failed to fetch');
  });

  it('says the server was not reached for a network failure, with the browser’s words', () => {
    expect(errorText(new TypeError('Failed to fetch'), en)).toBe('The server could not be reached (Failed to fetch).');
    expect(errorText(new TypeError('Failed to fetch'), zh)).toBe('无法连接服务器：Failed to fetch');
  });
});
