import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { keyedHash } from '../../../worker/lib/keyed-hash.ts';
import { DEV_ATTRIBUTION_SALT, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

// Many requests in one test: allow for a busy machine rather than fail on the default 5 s.
const HEAVY_TIMEOUT = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function trace(cookie?: string, options: { userAgent?: string; query?: string } = {}): Promise<Response> {
  return get(`/api/trace${options.query ?? ''}`, {
    userAgent: options.userAgent,
    headers: cookie === undefined ? {} : { cookie },
  });
}

async function userIdOf(res: Response): Promise<string> {
  const body: { userId: string } = await res.json();
  return body.userId;
}

/** The one `user_id` Set-Cookie split into its value and its attributes. */
function parseSetCookie(res: Response): { value: string; attributes: string[] } {
  const cookies = res.headers.getSetCookie();
  expect(cookies).toHaveLength(1);
  const [pair = '', ...attributes] = (cookies[0] ?? '').split('; ');
  expect(pair.startsWith('user_id=')).toBe(true);
  return { value: pair.slice('user_id='.length), attributes };
}

// Counted calls log a line each; the spy keeps a thousand of them out of the test output.
let log: MockInstance<typeof console.log>;
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /api/trace', () => {
  it('answers a first call with a new UUID and exactly one cookie carrying every attribute', async () => {
    const res = await trace();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const userId = await userIdOf(res);
    expect(userId).toMatch(UUID);
    const { value, attributes } = parseSetCookie(res);
    expect(value).toBe(userId);
    expect(attributes.sort()).toEqual(['Max-Age=31536000', 'Path=/', 'SameSite=Lax', 'Secure']);
  });

  it('keeps the answer out of shared caches', async () => {
    expect((await trace()).headers.get('cache-control')).toBe('no-store');
  });

  it('returns the same id on a repeat call with the cookie and does not rotate it', async () => {
    const first = await userIdOf(await trace());
    const again = await trace(`user_id=${first}`);
    expect(await userIdOf(again)).toBe(first);
    expect(parseSetCookie(again).value).toBe(first);
  });

  it('reuses the cookie among other cookies', async () => {
    const id = '3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a';
    expect(await userIdOf(await trace(`theme=dark; user_id=${id}; lang=en`))).toBe(id);
  });

  it.each([
    ['markup', '"><script>alert(1)</script>'],
    ['4 KB', 'a'.repeat(4096)],
    ['not a UUID', 'not-a-uuid'],
    ['a UUID with more after it', '3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a<b>'],
    ['broken percent-encoding', '%E0%A4%A'],
  ])('replaces an invalid cookie (%s) and never reflects it', async (_, bad) => {
    const res = await trace(`user_id=${bad}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const userId = (JSON.parse(text) as { userId: string }).userId;
    expect(userId).toMatch(UUID);
    expect(parseSetCookie(res).value).toBe(userId);
    expect(text).toBe(JSON.stringify({ userId }));
    for (const [, header] of res.headers) expect(header).not.toContain(bad);
  });

  it(
    'gives 1,000 calls 1,000 distinct ids',
    async () => {
      const ids = new Set<string>();
      for (let batch = 0; batch < 20; batch += 1) {
        const answers = await Promise.all(Array.from({ length: 50 }, async () => userIdOf(await trace())));
        for (const id of answers) ids.add(id);
      }
      expect(ids.size).toBe(1000);
      for (const id of ids) expect(id).toMatch(UUID);
    },
    HEAVY_TIMEOUT,
  );

  it('logs one structured line per counted call with the bounded query data', async () => {
    const res = await trace(undefined, { query: '?channel=spring&inviter=ann' });
    const userId = await userIdOf(res);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith({
      event: 'trace',
      visitor: await keyedHash(DEV_ATTRIBUTION_SALT, userId),
      minted: true,
      signed: {},
      plain: { channel: 'spring', inviter: 'ann' },
      droppedParams: 0,
    });
  });

  it("logs the token's fields and the plain parameters apart: a plain inviter never passes for a signed one", async () => {
    const d = encryptToken(JSON.stringify({ channel: 'spring', inviter: 'Ann' }), DEV_DECODE_KEY);
    await trace(undefined, { query: `?d=${d}&inviter=Mallory` });
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({
        signed: { channel: 'spring', inviter: 'Ann' },
        plain: { inviter: 'Mallory' },
        droppedParams: 0,
      }),
    );
  });

  it('logs no signed fields for a token that does not decrypt', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await trace(undefined, { query: '?d=forged&inviter=Mallory' });
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ signed: {}, plain: { inviter: 'Mallory' } }));
  });

  it('marks a reused id as not minted in the log line', async () => {
    const id = '3f0c4a6e-1b2d-4c3e-8f9a-0b1c2d3e4f5a';
    await trace(`user_id=${id}`);
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({ visitor: await keyedHash(DEV_ATTRIBUTION_SALT, id), minted: false }),
    );
    expect(JSON.stringify(log.mock.calls)).not.toContain(id);
  });

  it('logs tracking parameters only as dropped, never as plain campaign data', async () => {
    await trace(undefined, { query: '?channel=spring&utm_source=mail&fbclid=IwAR&gclid=Cj0&ttclid=t&campaign=42' });
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ plain: { channel: 'spring' }, droppedParams: 5 }));
  });

  it('bounds oversized query data in the log line and never echoes it in the answer', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `p${i}=v`).join('&');
    const query = `?channel=x&${encodeURIComponent('<script>')}=1&inviter=${'y'.repeat(5000)}&${many}`;
    const res = await trace(undefined, { query });
    expect(res.status).toBe(200);
    expect(Object.keys(await res.json())).toEqual(['userId']);
    const line = log.mock.calls[0]?.[0] as { plain: Record<string, string>; droppedParams: number };
    expect(line.plain).toEqual({ channel: 'x' });
    // `<script>`, the oversized inviter, then the 40 `p…` no page reads.
    expect(line.droppedParams).toBe(2 + 40);
    expect(JSON.stringify(line).length).toBeLessThan(1024);
  });

  it('does not count bots: an id, but no cookie and no log line', async () => {
    for (const userAgent of [UA.googlebot, UA.whatsapp]) {
      const res = await trace(undefined, { userAgent, query: '?channel=spring' });
      expect(res.status).toBe(200);
      expect(await userIdOf(res)).toMatch(UUID);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(log).not.toHaveBeenCalled();
  });

  it(
    'property: any Cookie header and query data answer 200 with a UUID, never echoing the input',
    async () => {
      const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
      console.info(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);
      // Printable ASCII and tab: what a Cookie header can carry.
      const headerChar = fc.integer({ min: 0x1f, max: 0x7e }).map((c) => String.fromCharCode(c === 0x1f ? 0x09 : c));
      await fc.assert(
        fc.asyncProperty(
          fc.string({ maxLength: 300, unit: headerChar }),
          fc.dictionary(fc.string({ maxLength: 40 }), fc.string({ maxLength: 300, unit: 'binary' }), { maxKeys: 30 }),
          async (junk, params) => {
            const res = await trace(`user_id=${junk}`, { query: `?${new URLSearchParams(params)}` });
            const text = await res.text();
            const userId = (JSON.parse(text) as { userId: string }).userId;
            // The body is exactly one UUID-shaped field: nothing else the visitor sent can be in it.
            return res.status === 200 && UUID.test(userId) && text === JSON.stringify({ userId });
          },
        ),
        { numRuns: 300, seed },
      );
    },
    HEAVY_TIMEOUT,
  );

  it('answers other methods with 405', async () => {
    const res = await get('/api/trace', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
