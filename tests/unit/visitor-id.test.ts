import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../client/app/http-client.ts';
import { resolveVisitorId } from '../../client/browser/identity/visitor-id.ts';
import { fetchAnswering, json, memoryCookies, memoryStore, networkError, status } from './fakes.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STORED = '11111111-2222-4333-8444-555555555555';
const COOKIE = '66666666-7777-4888-9999-aaaaaaaaaaaa';
const TRACED = 'bbbbbbbb-cccc-4ddd-8eee-ffffffffffff';
const TRACE_ORIGIN = 'https://trace.example';

function setup(options: { stored?: string; cookie?: string; fetch?: ReturnType<typeof fetchAnswering> } = {}) {
  const storage = memoryStore(options.stored === undefined ? {} : { user_id: options.stored });
  const cookies = memoryCookies(options.cookie === undefined ? {} : { user_id: options.cookie });
  const fetch = options.fetch ?? fetchAnswering(json({ userId: TRACED }));
  const warn = vi.fn<(message: string) => void>();
  const run = (queryData?: Record<string, string>) =>
    resolveVisitorId({
      storage,
      cookies,
      http: createHttpClient({ fetch }),
      traceOrigin: TRACE_ORIGIN,
      queryData,
      warn,
    });
  return { storage, cookies, fetch, warn, run };
}

/** The id and the cookie string written by step 4. */
function expectStoredEverywhere(ctx: ReturnType<typeof setup>, id: string) {
  expect(ctx.storage.data.get('user_id')).toBe(id);
  expect(ctx.cookies.written.at(-1)).toBe(`user_id=${id}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`);
}

describe('visitor id resolution (docs/identity.md)', () => {
  it('reuses the id in localStorage without calling the trace service', async () => {
    const ctx = setup({ stored: STORED, cookie: COOKIE });
    expect(await ctx.run()).toEqual({ id: STORED, source: 'stored' });
    expect(ctx.fetch).not.toHaveBeenCalled();
    expectStoredEverywhere(ctx, STORED);
  });

  it('falls back to the cookie when localStorage has none, and copies it back into localStorage', async () => {
    const ctx = setup({ cookie: COOKIE });
    expect(await ctx.run()).toEqual({ id: COOKIE, source: 'stored' });
    expect(ctx.fetch).not.toHaveBeenCalled();
    expectStoredEverywhere(ctx, COOKIE);
  });

  it('ignores stored values that are not UUIDs', async () => {
    const ctx = setup({ stored: '"><script>', cookie: 'x'.repeat(4096) });
    expect(await ctx.run()).toEqual({ id: TRACED, source: 'trace' });
    expectStoredEverywhere(ctx, TRACED);
  });

  it('asks the trace service when nothing is stored: credentials included, query data along, userId read', async () => {
    const ctx = setup();
    expect(await ctx.run({ channel: 'spring', inviter: 'ann' })).toEqual({ id: TRACED, source: 'trace' });
    expect(ctx.fetch).toHaveBeenCalledTimes(1);
    const [request, init] = ctx.fetch.mock.calls[0] ?? [];
    expect(String(request)).toBe(`${TRACE_ORIGIN}/api/trace?channel=spring&inviter=ann`);
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('GET');
    expect(ctx.warn).not.toHaveBeenCalled();
    expectStoredEverywhere(ctx, TRACED);
  });

  it('on a trace 500 tries once more, then warns `HTTP error! status: 500` and uses a temporary UUID', async () => {
    const ctx = setup({ fetch: fetchAnswering(status(500)) });
    const resolved = await ctx.run();
    expect(ctx.fetch).toHaveBeenCalledTimes(2);
    expect(resolved.source).toBe('temporary');
    expect(resolved.id).toMatch(UUID);
    expect(ctx.warn).toHaveBeenCalledTimes(1);
    expect(ctx.warn.mock.calls[0]?.[0]).toContain('HTTP error! status: 500');
    expectStoredEverywhere(ctx, resolved.id);
  });

  it('takes the trace answer when the retry after a 503 succeeds', async () => {
    const ctx = setup({ fetch: fetchAnswering(status(503), json({ userId: TRACED })) });
    expect(await ctx.run()).toEqual({ id: TRACED, source: 'trace' });
    expect(ctx.warn).not.toHaveBeenCalled();
  });

  it('uses a temporary UUID after a network error', async () => {
    const ctx = setup({ fetch: fetchAnswering(networkError()) });
    const resolved = await ctx.run();
    expect(resolved.source).toBe('temporary');
    expect(resolved.id).toMatch(UUID);
    expect(ctx.warn).toHaveBeenCalledTimes(1);
    expectStoredEverywhere(ctx, resolved.id);
  });

  it('uses a temporary UUID at once on a 404 (not a status worth a retry)', async () => {
    const ctx = setup({ fetch: fetchAnswering(status(404)) });
    expect((await ctx.run()).source).toBe('temporary');
    expect(ctx.fetch).toHaveBeenCalledTimes(1);
    expect(ctx.warn.mock.calls[0]?.[0]).toContain('HTTP error! status: 404');
  });

  it.each([
    ['no userId', {}],
    ['a userId that is not a UUID', { userId: '<b>hi</b>' }],
    ['a body that is not an object', 'hello'],
  ])('uses a temporary UUID when the trace service answers %s', async (_, body) => {
    const ctx = setup({ fetch: fetchAnswering(json(body)) });
    const resolved = await ctx.run();
    expect(resolved.source).toBe('temporary');
    expect(resolved.id).toMatch(UUID);
  });

  it('makes a different temporary id each time the trace service fails', async () => {
    const a = await setup({ fetch: fetchAnswering(status(500)) }).run();
    const b = await setup({ fetch: fetchAnswering(status(500)) }).run();
    expect(a.id).not.toBe(b.id);
  });

  it('uses a temporary UUID when the trace origin is not a URL', async () => {
    const ctx = setup();
    const resolved = await resolveVisitorId({
      storage: ctx.storage,
      cookies: ctx.cookies,
      http: createHttpClient({ fetch: ctx.fetch }),
      traceOrigin: 'not a url',
      warn: ctx.warn,
    });
    expect(resolved.source).toBe('temporary');
    expect(ctx.fetch).not.toHaveBeenCalled();
  });
});
