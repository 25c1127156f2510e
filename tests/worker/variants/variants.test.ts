/**
 * A link's variants through the real worker (docs/smart-links.md#variants-and-the-sequential-test):
 * `PUT /api/links/<slug>/variants` refuses what it must, naming the field; `/s/<slug>` shows each
 * visitor the variant the keyed hash gives them, the same on every return (a first visit's minted
 * `user_id` cookie included), kept pages apart per variant; views, taps, installs and a chosen app
 * event count under the variant through the queue into D1; `GET /api/links/<slug>/experiment`
 * answers the counts and the sequential test's verdict.
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExperimentView } from '../../../shared/variants.ts';
import { DEV_ADMIN_TOKEN, settingsOf } from '../../../worker/settings.ts';
import { assignmentKey, assignVariant } from '../../../worker/variants/assign.ts';
import { UA } from '../../fixtures/agents.ts';
import { clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { appCall, carrierLink, network, send } from '../app-calls.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const APP = 'com.pebble.notes';
const VARIANTS = [
  { name: 'a', weight: 1, headline: 'Notes that stay', button: 'Get Pebble' },
  { name: 'b', weight: 1, headline: 'Free this week', text: 'All themes included', button: 'Install free' },
];

function admin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** A new short link with `variants` (judged on `event`, if given): its slug and token. */
async function linkWithVariants(
  variants: unknown = VARIANTS,
  event?: string,
): Promise<{ slug: string; token: string }> {
  const slug = `v-${crypto.randomUUID().slice(0, 8)}`;
  const made = await admin('/api/links', 'POST', { channel: `ch-${slug}`, slug });
  expect(made.status).toBe(201);
  const token = new URL((await made.json<{ url: string }>()).url).searchParams.get('d') ?? '';
  const put = await admin(`/api/links/${slug}/variants`, 'PUT', { variants, ...(event ? { event } : {}) });
  expect(put.status, await put.clone().text()).toBe(200);
  return { slug, token };
}

/** The variant the worker's key gives `visitor` on `slug`. */
async function expected(slug: string, visitor: string): Promise<string> {
  const key = assignmentKey(settingsOf(env).funnelSalt ?? '', 'default');
  return VARIANTS[await assignVariant(key, slug, visitor, [1, 1])]?.name ?? '';
}

/** The page `/s/<slug>` for `visitor` (its `user_id` cookie), from `address`. */
async function page(slug: string, visitor?: string, address = '198.51.100.1', userAgent = UA.iPhoneSafari) {
  const res = await get(`/s/${slug}`, {
    userAgent,
    headers: { 'cf-connecting-ip': address, ...(visitor ? { cookie: `user_id=${visitor}` } : {}) },
  });
  expect(res.status).toBe(200);
  const html = await res.text();
  return { res, html, handoff: handoffOf(html)?.handoff };
}

describe('PUT /api/links/<slug>/variants', () => {
  it.each([
    [{ variants: [VARIANTS[0]] }, 'variants: variants are at least 2'],
    [
      { variants: [VARIANTS[0], { ...VARIANTS[1], image: 'http://x.test/a.png' }] },
      'variants.1.image: image is not an https URL',
    ],
    [{ variants: [VARIANTS[0], { ...VARIANTS[1], name: 'a' }] }, 'variants: variants have a name twice'],
    [{ variants: VARIANTS, event: 'Sign Up' }, 'event: names are a-z 0-9 _ . - (at most 40)'],
    [{ variants: VARIANTS, colour: 'red' }, 'colour'],
  ])('refuses %j with a 400 naming the field', async (body, error) => {
    const { slug } = await linkWithVariants();
    const res = await admin(`/api/links/${slug}/variants`, 'PUT', body);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(error);
  });

  it('answers 404 for an unknown link, and needs a signed-in operator', async () => {
    expect((await admin('/api/links/no-such-link-x/variants', 'PUT', { variants: VARIANTS })).status).toBe(404);
    const anonymous = await exports.default.fetch(
      new Request(`${ORIGIN}/api/links/no-such-link-x/experiment`, { headers: {} }),
    );
    expect(anonymous.status).toBe(401);
  });

  it('answers the variants as kept with GET, words and event included, for the console to edit', async () => {
    const { slug } = await linkWithVariants(VARIANTS, 'signup');
    const res = await admin(`/api/links/${slug}/variants`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ variants: VARIANTS, event: 'signup' });
    const plain = await admin('/api/links', 'POST', { channel: 'no-variants' });
    const { slug: other } = await plain.json<{ slug: string }>();
    expect(await (await admin(`/api/links/${other}/variants`)).json()).toEqual({
      error: 'slug: the link has no variants',
    });
    expect((await admin('/api/links/no-such-link-x/variants')).status).toBe(404);
    const anonymous = await exports.default.fetch(new Request(`${ORIGIN}/api/links/${slug}/variants`));
    expect(anonymous.status).toBe(401);
  });

  it('removes the variants with DELETE: the page is the plain campaign page again', async () => {
    const { slug } = await linkWithVariants();
    expect((await admin(`/api/links/${slug}/variants`, 'DELETE')).status).toBe(204);
    expect((await admin(`/api/links/${slug}/variants`)).status).toBe(404);
    const { handoff } = await page(slug, crypto.randomUUID());
    expect(handoff.landing.variant).toBeUndefined();
    expect((await admin(`/api/links/${slug}/experiment`)).status).toBe(404);
  });
});

describe('/s/<slug> with variants', () => {
  it('shows each visitor the variant the keyed hash gives them, the same on every return, kept pages apart', async () => {
    const { slug } = await linkWithVariants();
    const seen = new Set<string>();
    for (let i = 0; i < 12; i += 1) {
      const visitor = crypto.randomUUID();
      const name = await expected(slug, visitor);
      seen.add(name);
      const want = VARIANTS.find((variant) => variant.name === name);
      // Three visits: the second and third are answered from the kept page of that variant.
      for (let visit = 0; visit < 3; visit += 1) {
        const { html, handoff } = await page(slug, visitor);
        expect(handoff.landing.variant.name).toBe(name);
        expect(handoff.attribution.variant).toBe(name);
        expect(html).toContain(`<h2>${want?.headline}</h2>`);
        expect(html).toContain(want?.button);
      }
    }
    expect(seen).toEqual(new Set(['a', 'b']));
  });

  it('gives a first visit a user_id cookie and keys its variant on it, so the return visit matches', async () => {
    const { slug } = await linkWithVariants();
    const first = await page(slug);
    const cookie = /user_id=([0-9a-f-]{36})/.exec(first.res.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeDefined();
    expect(first.handoff.landing.variant.name).toBe(await expected(slug, cookie ?? ''));
    const again = await page(slug, cookie);
    expect(again.handoff.landing.variant.name).toBe(first.handoff.landing.variant.name);
    expect(again.res.headers.get('set-cookie')).toBeNull();
  });

  it("shows the variant a rule's page action names, to every visitor the rule holds for", async () => {
    const slug = `v-${crypto.randomUUID().slice(0, 8)}`;
    const rules = [{ when: 'os == "iOS"', action: 'page', variant: 'b' }];
    expect((await admin('/api/links', 'POST', { channel: `ch-${slug}`, slug, rules })).status).toBe(201);
    expect((await admin(`/api/links/${slug}/variants`, 'PUT', { variants: VARIANTS })).status).toBe(200);
    const names = new Set<string>();
    for (let i = 0; i < 8; i += 1) names.add((await page(slug, crypto.randomUUID())).handoff.landing.variant.name);
    expect(names).toEqual(new Set(['b']));
    // An Android visitor is no rule's: the keyed hash chooses.
    const visitor = crypto.randomUUID();
    const android = await page(slug, visitor, '198.51.100.2', UA.androidChrome);
    expect(android.handoff.landing.variant.name).toBe(await expected(slug, visitor));
  });

  it('shows a bot the control', async () => {
    const { slug } = await linkWithVariants();
    const res = await get(`/s/${slug}`, { userAgent: UA.googlebot });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).not.toContain('Free this week');
  });
});

/** The taps counted under `variant` of link `slug`. */
async function tapsUnder(slug: string, variant: string): Promise<number> {
  const row = await env.FUNNEL_DB.prepare(
    "SELECT SUM(count) AS n FROM funnel_daily WHERE link = ?1 AND variant = ?2 AND metric GLOB 'tap:*'",
  )
    .bind(slug, variant)
    .first<{ n: number | null }>();
  return row?.n ?? 0;
}

describe('the experiment, counted through the funnel', () => {
  it('counts visitors, installs and the chosen event per variant, and says there is no winner yet', async () => {
    const { slug, token } = await linkWithVariants(VARIANTS, 'register');
    const at = network(31);
    const want = { a: { visitors: 0, installs: 0, events: 0 }, b: { visitors: 0, installs: 0, events: 0 } };
    const taps = { a: 0, b: 0 };
    for (let i = 0; i < 6; i += 1) {
      const visitor = crypto.randomUUID();
      const address = at(i + 1);
      const { handoff } = await page(slug, visitor, address);
      const name: 'a' | 'b' = handoff.landing.variant.name;
      want[name].visitors += 1;
      // The first four visitors tap and install; the first two of them register.
      if (i >= 4) continue;
      const body = { ...clickBody(PHONES.iPhone15, { d: token, visitorId: visitor }), link: slug, variant: name };
      const headers = { 'cf-connecting-ip': address, 'user-agent': PHONES.iPhone15.web.agent };
      expect((await send('/api/a/click', body, headers)).status).toBe(204);
      // The tap's variant is kept once its link is verified, after the beacon's answer; a person's
      // install comes minutes later, so the test waits for the tap to be counted under it first.
      await expect.poll(() => tapsUnder(slug, name), { timeout: 20_000 }).toBe(++taps[name]);
      const installId = `install-${crypto.randomUUID()}`;
      const carriers = { clipboard: carrierLink(`${body.clickId}.${token}`) };
      const answer = await appCall('/api/a/install', installBody(PHONES.iPhone15, installId, carriers), address);
      expect(answer?.matched).toBe(true);
      want[name].installs += 1;
      if (i < 2) {
        await appCall('/api/a/event', { app: APP, installId, name: 'register' }, address);
        want[name].events += 1;
      }
    }
    const experiment = async () => (await admin(`/api/links/${slug}/experiment`)).json<ExperimentView>();
    const counted = async () =>
      Object.fromEntries(
        (await experiment()).arms.map(({ name, visitors, installs, events }) => [name, { visitors, installs, events }]),
      );
    await expect.poll(counted, { timeout: 20_000 }).toEqual(want);
    const view = await experiment();
    expect(view).toMatchObject({ slug, outcome: 'event:register', alpha: 0.05 });
    expect(view.arms.map(({ verdict }) => verdict)).toEqual([null, { kind: 'no-winner-yet' }]);
    // Another event may be asked for; a name no app can send is refused, naming the field.
    expect((await (await admin(`/api/links/${slug}/experiment?event=open_note`)).json<ExperimentView>()).outcome).toBe(
      'event:open_note',
    );
    const refused = await admin(`/api/links/${slug}/experiment?event=Sign%20Up`);
    expect(refused.status).toBe(400);
    expect((await refused.json<{ error: string }>()).error).toMatch(/^event: /);
  });

  it('counts a tap that names a variant the link does not have under the link alone', async () => {
    const { slug, token } = await linkWithVariants();
    const at = network(32);
    const body = { ...clickBody(PHONES.iPhone15, { d: token }), link: slug, variant: 'zzz' };
    const headers = { 'cf-connecting-ip': at(1), 'user-agent': PHONES.iPhone15.web.agent };
    expect((await send('/api/a/click', body, headers)).status).toBe(204);
    await expect.poll(() => tapsUnder(slug, ''), { timeout: 20_000 }).toBe(1);
    expect(await tapsUnder(slug, 'zzz')).toBe(0);
  });

  it('names the winner with its lift and interval once the counts say so', async () => {
    const { slug } = await linkWithVariants();
    // 4,000 visitors a variant on one day: the control installs 10 %, the variant 14 %.
    const day = '2026-11-01';
    const visitors = (variant: string, count: number) =>
      env.FUNNEL_DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?4)
         INSERT INTO funnel_visitors (app, day, visitor, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter)
         SELECT 'default', ?1, ?3 || i, '', '', ?2, ?3, '', '', '', '', '', '' FROM n`,
      ).bind(day, slug, variant, count);
    const installs = (variant: string, count: number) =>
      env.FUNNEL_DB.prepare(
        `INSERT INTO funnel_daily (app, day, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter, metric, count)
         VALUES ('default', ?1, '', '', ?2, ?3, '', '', '', '', '', '', 'install:clipboard', ?4)`,
      ).bind(day, slug, variant, count);
    await env.FUNNEL_DB.batch([visitors('a', 4000), visitors('b', 4000), installs('a', 400), installs('b', 560)]);
    const view = await (await admin(`/api/links/${slug}/experiment`)).json<ExperimentView>();
    expect(view.outcome).toBe('installs');
    const verdict = view.arms[1]?.verdict;
    expect(verdict).toMatchObject({ kind: 'winner', winner: 'b' });
    if (verdict?.kind !== 'winner') return;
    expect(verdict.lift).toBeCloseTo(0.4, 10);
    expect(verdict.interval[0]).toBeGreaterThan(0);
    expect(verdict.interval[1]).toBeGreaterThan(0.4);
  });
});
