/**
 * The console's calls (client/app/admin/admin-api.ts, docs/operators.md): signed in with a token,
 * each call carries it; behind Cloudflare Access (no token), none carries an Authorization header,
 * so Access's own assertion is what signs it in. A refused call shows the API's message.
 */
import { describe, expect, it } from 'vitest';
import { adminApi, errorText } from '../../client/app/admin/admin-api.ts';
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
  it('is the API’s own message of a refused call', () => {
    const error = new HttpError(409, { cause: { data: { error: 'the slug "spring" is taken' } } });
    expect(errorText(error)).toBe('the slug "spring" is taken');
  });

  it('is the HTTP status when the answer says nothing', () => {
    expect(errorText(new HttpError(502))).toBe('HTTP error! status: 502');
  });
});
