/**
 * Writes to the admin API (docs/security.md, "Cross-site writes"): JSON or no body, else 415 naming
 * Content-Type; and a write Cloudflare Access's cookie signs in (no `Authorization`) only from the
 * worker's own origin, else 403 — while bearer-token clients and the page's public beacon are as before.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EndpointView } from '../../../shared/webhooks.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { clickBody, PHONES } from '../../fixtures/fake-app.ts';
import { accessTeam } from '../access-team.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { admin, RECEIVER } from '../webhook-fixtures.ts';

const BEARER = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };
/** What a browser adds to a request another site's page makes. */
const CROSS_SITE = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
/** What a browser adds to the console's own request. */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: ORIGIN };

const freshSlug = (): string => `w-${crypto.randomUUID().slice(0, 8)}`;

function write(
  path: string,
  { method = 'POST', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string },
  bindings: Partial<Env> = {},
): Promise<Response> {
  return fetchWorker(`${ORIGIN}${path}`, { method, headers, body }, { ...env, ...bindings });
}

/** Whether the link `slug` exists, as the admin API lists links. */
async function linkExists(slug: string): Promise<boolean> {
  const res = await fetchWorker(`${ORIGIN}/api/links`, { headers: BEARER }, env);
  return ((await res.json()) as { links: { slug: string }[] }).links.some((link) => link.slug === slug);
}

async function webhookUrls(): Promise<string[]> {
  return ((await (await admin('')).json()) as { endpoints: EndpointView[] }).endpoints.map((e) => e.url);
}

afterEach(async () => {
  vi.restoreAllMocks();
  const { endpoints } = (await (await admin('')).json()) as { endpoints: EndpointView[] };
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

describe('an admin write with a bearer token', () => {
  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('is refused with 415 naming Content-Type when its body is %s, and nothing is made', async (_, type) => {
    const slug = freshSlug();
    const res = await write('/api/links', {
      headers: { ...BEARER, 'content-type': type },
      body: JSON.stringify({ channel: 'csrf', slug }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Content-Type: .*application\/json/) });
    expect(await linkExists(slug)).toBe(false);
  });

  it('is refused with 415 when it has a body and no Content-Type', async () => {
    const res = await write('/api/links', { headers: BEARER, body: new Blob(['{"channel":"x"}']) as never });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'Content-Type: an admin write takes application/json, got none' });
  });

  it('takes application/json, with a charset, from any origin: a CLI or an integration is not a browser page', async () => {
    const slug = freshSlug();
    const res = await write('/api/links', {
      headers: { ...BEARER, ...CROSS_SITE, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: 'csrf', slug }),
    });
    expect(res.status).toBe(201);
    expect(await linkExists(slug)).toBe(true);
  });

  it('takes a write without a body and without Content-Type (DELETE, rotate, a test delivery)', async () => {
    const slug = freshSlug();
    await write('/api/links', { headers: { ...BEARER, ...JSON_TYPE }, body: JSON.stringify({ slug }) });
    expect((await write(`/api/links/${slug}`, { method: 'DELETE', headers: BEARER })).status).toBe(204);
    expect((await write('/api/webhooks/ep_AAAAAAAAAAAAAAAA/rotate', { headers: BEARER })).status).toBe(404);
  });
});

describe('an admin write Cloudflare Access signs in (its cookie, no Authorization header)', () => {
  /** Access's assertion on a request, in development so the receiver on 127.0.0.1 is a valid endpoint. */
  async function signedIn() {
    const team = await accessTeam();
    const jwt = await team.key.sign(team.claims);
    return { headers: { 'cf-access-jwt-assertion': jwt }, bindings: { ...team.bindings, LANDER_ENV: 'development' } };
  }

  it('from another site, as a text/plain form, is refused with 403 and no webhook is made', async () => {
    const { headers, bindings } = await signedIn();
    const url = `${RECEIVER}/r/csrf-${crypto.randomUUID().slice(0, 8)}`;
    // A form with enctype=text/plain sends `name=value`: a name of `{"url":"…","x":"` makes it JSON.
    const body = `{"url":"${url}","x":"="}`;
    const res = await write(
      '/api/webhooks',
      { headers: { ...headers, ...CROSS_SITE, 'content-type': 'text/plain' }, body },
      bindings,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Sec-Fetch-Site: a cross-site write/) });
    expect(await webhookUrls()).not.toContain(url);
    // The same body from the console's own origin, as JSON, is made: the refusal was the site's.
    const made = await write(
      '/api/webhooks',
      { headers: { ...headers, ...SAME_ORIGIN, ...JSON_TYPE }, body: JSON.stringify({ url }) },
      bindings,
    );
    expect(made.status).toBe(201);
    expect(await webhookUrls()).toContain(url);
  });

  it.each([
    [
      'a same-site page (another subdomain or port)',
      { 'sec-fetch-site': 'same-site', origin: 'https://x.lander.test' },
    ],
    ['a no-cors fetch of another site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['an older browser naming another origin', { origin: 'https://evil.example' }],
    ['a sandboxed or data: page (Origin null)', { origin: 'null' }],
  ])('from %s is refused with 403, even as JSON', async (_, site) => {
    const { headers, bindings } = await signedIn();
    const slug = freshSlug();
    const res = await write(
      '/api/links',
      { headers: { ...headers, ...site, ...JSON_TYPE }, body: JSON.stringify({ slug }) },
      bindings,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^(Sec-Fetch-Site|Origin): /) });
    expect(await linkExists(slug)).toBe(false);
  });

  it.each([
    ['PATCH', '/api/links/nope-nope'],
    ['DELETE', '/api/links/nope-nope'],
    ['POST', '/api/webhooks/ep_AAAAAAAAAAAAAAAA/test'],
    ['DELETE', '/api/webhooks/ep_AAAAAAAAAAAAAAAA'],
    ['POST', '/api/test-devices'],
    ['DELETE', '/api/test-devices/1'],
  ])('%s %s from another site is refused with 403 before it reaches the route', async (method, path) => {
    const { headers, bindings } = await signedIn();
    expect((await write(path, { method, headers: { ...headers, ...CROSS_SITE } }, bindings)).status).toBe(403);
  });

  it('from the console’s own origin, or from a client that is no browser page, is taken', async () => {
    const { headers, bindings } = await signedIn();
    const sites: Record<string, string>[] = [SAME_ORIGIN, { origin: ORIGIN }, {}];
    for (const site of sites) {
      const slug = freshSlug();
      const res = await write(
        '/api/links',
        { headers: { ...headers, ...site, ...JSON_TYPE }, body: JSON.stringify({ slug }) },
        bindings,
      );
      expect(res.status, JSON.stringify(site)).toBe(201);
    }
  });

  it('from the console’s own origin still takes only JSON (415)', async () => {
    const { headers, bindings } = await signedIn();
    const res = await write(
      '/api/links',
      { headers: { ...headers, ...SAME_ORIGIN, 'content-type': 'text/plain' }, body: '{}' },
      bindings,
    );
    expect(res.status).toBe(415);
  });

  it('is a write only: a read from another site is answered (the browser keeps it from the page)', async () => {
    const { headers, bindings } = await signedIn();
    const res = await fetchWorker(
      `${ORIGIN}/api/links`,
      { headers: { ...headers, ...CROSS_SITE } },
      { ...env, ...bindings },
    );
    expect(res.status).toBe(200);
  });
});

describe('the public APIs', () => {
  it('take the page’s beacon (sendBeacon: text/plain, from any origin) as before', async () => {
    const phone = PHONES.iPhone15;
    const res = await write('/api/a/click', {
      headers: { ...CROSS_SITE, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': phone.web.agent },
      body: JSON.stringify(clickBody(phone)),
    });
    expect(res.status).toBe(204);
  });
});
