/**
 * Invite links from the app (docs/campaign-links.md#invite-links-from-the-app), through the real worker,
 * its Durable Objects and D1: an install that called install() and identify() makes a short link of
 * its app with what the operator allows; everything else is refused with the field named; the install
 * is held to five a minute and its app's number a day; another app's install makes nothing here; and
 * no request ever makes anything but such a link.
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_KEY, configKeyOf } from '../../../shared/apps.ts';
import { appSalt } from '../../../worker/apps/app-keys.ts';
import { installKey } from '../../../worker/attribution/resolve-install.ts';
import demo from '../../../worker/config/demo.json';
import { DEV_ADMIN_TOKEN, settingsOf } from '../../../worker/settings.ts';
import { expectConforms } from '../conforms.ts';
import { ORIGIN } from '../helpers.ts';

const PACKAGE = 'com.pebble.notes';
const invites = { enabled: true, channels: ['invite', 'share'], data_keys: ['campaign'], max_value_length: 12 };
const CONFIGS: Record<string, unknown> = {
  inviting: { ...demo, invites: { ...invites, per_day: 100 } },
  capped: { ...demo, invites: { ...invites, per_day: 2 } },
  other: { ...demo, invites: { ...invites, per_day: 100 } },
  // Invites left out: off.
  closed: demo,
};

beforeAll(async () => {
  const apps = ['default', ...Object.keys(CONFIGS)].map((id) => ({ id, name: id }));
  await env.KV.put(APPS_KEY, JSON.stringify({ apps }));
  for (const [app, config] of Object.entries(CONFIGS)) await env.KV.put(configKeyOf(app), JSON.stringify(config));
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
  for (const app of Object.keys(CONFIGS)) await env.KV.delete(configKeyOf(app));
});

let addresses = 0;
/** An address no other call of this file uses: the network's limits never meet these tests. */
const freshAddress = () => {
  addresses += 1;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
};

function post(app: string, path: string, body: unknown, address = freshAddress()): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${app}${path}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    }),
  );
}

function adminLinks(app: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${app}/api/links`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
}

const installBody = (installId: string) => ({
  app: PACKAGE,
  platform: 'android',
  osVersion: '14',
  model: 'SM-S911B',
  screen: { w: 360, h: 780, scale: 3 },
  tz: 'Asia/Kolkata',
  langs: ['en-IN'],
  installId,
});

/** An install of `app` that called install() and identify(`userId`), once its identity is kept: its id. */
async function signedIn(app: string, userId: string, { identify = true } = {}): Promise<string> {
  const installId = `inst-${crypto.randomUUID()}`;
  expect((await post(app, '/api/a/install', installBody(installId))).status).toBe(200);
  if (!identify) return installId;
  expect((await post(app, '/api/a/identify', { app: PACKAGE, installId, userId })).status).toBe(204);
  // The identity is kept after the response (waitUntil): wait for its row.
  const key = await installKey(appSalt(settingsOf(env).attributionSalt ?? '', app), PACKAGE, installId);
  for (let tries = 0; tries < 200; tries += 1) {
    const row = await env.FUNNEL_DB.prepare(
      "SELECT 1 AS yes FROM fraud_identities WHERE app = ?1 AND kind = 'install' AND value = ?2",
    )
      .bind(app, key)
      .first();
    if (row) return installId;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('identify was not kept');
}

const linkRows = async (app: string): Promise<number> =>
  (
    await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM funnel_links WHERE app = ?1')
      .bind(app)
      .first<{ n: number }>()
  )?.n ?? 0;

async function refusal(res: Response): Promise<{ status: number; error: string }> {
  return { status: res.status, error: (await res.json<{ error: string }>()).error };
}

describe('POST /api/a/links', () => {
  it("makes a short link of the app for the identified user, shown in the links API with its source 'app'", async () => {
    const installId = await signedIn('inviting', 'user-ann');
    const res = await post('inviting', '/api/a/links', {
      app: PACKAGE,
      installId,
      inviter: 'user-ann',
      channel: 'share',
      data: { campaign: 'spring' },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const made = (await expectConforms(res, '/api/a/links')) as { slug: string; url: string; data: unknown };
    expect(made.url).toBe(`${ORIGIN}/@inviting/s/${made.slug}`);
    expect(made.data).toEqual({ campaign: 'spring', channel: 'share', inviter: 'user-ann' });

    const listed = await adminLinks('inviting');
    const { links } = await listed.json<{ links: { slug: string; source: string; data: unknown }[] }>();
    expect(links.find((link) => link.slug === made.slug)).toMatchObject({ source: 'app', data: made.data });
    // The short link serves its page, as any other.
    const page = await exports.default.fetch(new Request(made.url, { redirect: 'manual' }));
    expect(page.status).toBeLessThan(400);
  });

  it('takes the first allowed channel when none is named', async () => {
    const installId = await signedIn('inviting', 'user-bo');
    const res = await post('inviting', '/api/a/links', { app: PACKAGE, installId, inviter: 'user-bo' });
    expect(res.status).toBe(201);
    expect((await res.json<{ data: unknown }>()).data).toEqual({ channel: 'invite', inviter: 'user-bo' });
  });

  it("shows an operator's link with its source 'operator'", async () => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/@inviting/api/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'poster' }),
      }),
    );
    expect(res.status).toBe(201);
    expect((await res.json<{ source: string }>()).source).toBe('operator');
  });
});

describe('POST /api/a/links refuses what is beyond its permission, naming the field', () => {
  let installId = '';
  beforeAll(async () => {
    installId = await signedIn('inviting', 'user-cy');
  });
  const ask = (extra: Record<string, unknown>) =>
    post('inviting', '/api/a/links', { app: PACKAGE, installId, inviter: 'user-cy', ...extra });

  for (const [field, value] of [
    ['rules', [{ when: 'true', action: 'store' }]],
    ['variants', [{ name: 'a', weight: 1 }]],
    ['password', 'hunter2hunter2'],
    ['slug', 'my-own-slug'],
    ['expiresAt', '2030-01-01T00:00:00Z'],
    ['preview', { title: 'Win' }],
    ['url', 'https://elsewhere.example/'],
    ['target', 'https://elsewhere.example/'],
  ] as const) {
    it(`refuses ${field} with 400 naming it`, async () => {
      const before = await linkRows('inviting');
      expect(await refusal(await ask({ [field]: value }))).toEqual({
        status: 400,
        error: `${field}: is not a field an invite link from the app takes (app, installId, inviter, channel, data)`,
      });
      expect(await linkRows('inviting')).toBe(before);
    });
  }

  it('refuses a channel the operator does not allow', async () => {
    expect(await refusal(await ask({ channel: 'ads' }))).toEqual({
      status: 400,
      error: `channel: "ads" is not one of this app's invite channels (invite, share)`,
    });
  });

  it('refuses a data field the operator does not allow, reserved names included', async () => {
    for (const key of ['title', 'rules', '__proto__', 'channel']) {
      const data = JSON.parse(`{"${key}":"x"}`);
      const { status, error } = await refusal(await ask({ data }));
      expect(status).toBe(400);
      expect(error).toBe(`data.${key}: not a field this app's invite links may set (allowed: campaign)`);
    }
  });

  it('refuses a data value past the operator’s length, and one that is not text', async () => {
    expect(await refusal(await ask({ data: { campaign: 'x'.repeat(13) } }))).toEqual({
      status: 400,
      error: 'data.campaign: at most 12 characters',
    });
    expect((await refusal(await ask({ data: { campaign: 7 } }))).error).toBe('data: values must be text');
  });

  it('refuses an inviter the install was not identified as', async () => {
    expect(await refusal(await ask({ inviter: 'user-dee' }))).toEqual({
      status: 403,
      error: 'inviter: this install was not identified as this user: call identify(userId) first',
    });
  });

  it('refuses an install that never called identify()', async () => {
    const stranger = await signedIn('inviting', 'user-eve', { identify: false });
    const res = await post('inviting', '/api/a/links', { app: PACKAGE, installId: stranger, inviter: 'user-eve' });
    expect((await refusal(res)).error).toMatch(/^inviter: /);
  });

  it('refuses an install id that never called install()', async () => {
    const res = await ask({ installId: `inst-${crypto.randomUUID()}` });
    expect(await refusal(res)).toEqual({
      status: 403,
      error: 'installId: no install of this app has this id: call install() first',
    });
  });

  it('refuses a package the app does not configure', async () => {
    expect(await refusal(await ask({ app: 'com.other.app' }))).toEqual({
      status: 400,
      error: 'app: "com.other.app" is not a configured app',
    });
  });

  it('refuses every call while the operator has not turned invites on', async () => {
    const closedInstall = await signedIn('closed', 'user-fay', { identify: false });
    const res = await post('closed', '/api/a/links', { app: PACKAGE, installId: closedInstall, inviter: 'user-fay' });
    expect(await refusal(res)).toEqual({
      status: 403,
      error: "app: invite links from the app are off for this app (its configuration's invites.enabled)",
    });
  });
});

describe('POST /api/a/links is counted per install', () => {
  it('answers 429 with the RateLimit fields past five a minute', async () => {
    const installId = await signedIn('inviting', 'user-gus');
    const body = { app: PACKAGE, installId, inviter: 'user-gus' };
    for (let n = 0; n < 5; n += 1) {
      const res = await post('inviting', '/api/a/links', body);
      expect(res.status).toBe(201);
      expect(res.headers.get('ratelimit-policy')).toContain('"install";q=5;w=60');
      expect(res.headers.get('ratelimit')).toContain(`"install";r=${4 - n};`);
    }
    const refused = await post('inviting', '/api/a/links', body);
    expect(refused.status).toBe(429);
    await expectConforms(refused, '/api/a/links');
    expect(refused.headers.get('ratelimit')).toMatch(/^"install";r=0;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refusal(refused)).error).toMatch(/^Too many calls: 5 a minute for this install/);
    // Another install of the same app is not held by it.
    const other = await signedIn('inviting', 'user-gus');
    expect((await post('inviting', '/api/a/links', { ...body, installId: other })).status).toBe(201);
  });

  it("answers 429 past the app's number a day", async () => {
    const installId = await signedIn('capped', 'user-hal');
    const body = { app: PACKAGE, installId, inviter: 'user-hal' };
    expect((await post('capped', '/api/a/links', body)).status).toBe(201);
    const second = await post('capped', '/api/a/links', body);
    expect(second.headers.get('ratelimit-policy')).toBe('"install";q=5;w=60, "install-day";q=2;w=86400');
    const refused = await post('capped', '/api/a/links', body);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/"install-day";r=0;t=\d+$/);
    expect((await refusal(refused)).error).toMatch(/^Too many calls: 2 a day for this install-day/);
  });
});

describe("another app's install", () => {
  it('makes no link in this app, though it is identified in its own', async () => {
    const theirs = await signedIn('other', 'user-ida');
    const before = await linkRows('inviting');
    const res = await post('inviting', '/api/a/links', { app: PACKAGE, installId: theirs, inviter: 'user-ida' });
    expect((await refusal(res)).error).toMatch(/^installId: /);
    expect(await linkRows('inviting')).toBe(before);
    // In its own app it makes one.
    expect((await post('other', '/api/a/links', { app: PACKAGE, installId: theirs, inviter: 'user-ida' })).status).toBe(
      201,
    );
  });
});

describe('POST /api/a/links, for any body', () => {
  it('never makes anything but an invite link of the app: the allowed channel and fields, the identified inviter, nothing else', async () => {
    const users = ['user-jo', 'user-kim', 'user-lu', 'user-mo'];
    const installs: string[] = [];
    for (const user of users) installs.push(await signedIn('inviting', user));
    const field = fc.oneof(
      fc.constantFrom('app', 'installId', 'inviter', 'channel', 'data', 'rules', 'password', 'slug', 'expiresAt'),
      fc.string({ maxLength: 12 }),
    );
    const anything = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null), fc.boolean());
    const body = fc
      .record(
        {
          app: fc.constantFrom(PACKAGE, PACKAGE, PACKAGE, 'com.other.app'),
          who: fc.nat(users.length - 1),
          // Mostly the install's own user; now and then another's, or nobody's.
          inviter: fc.option(fc.constantFrom(...users, 'user-zed'), { freq: 3 }),
          installId: fc.option(fc.constantFrom('inst-unknown-0001', ...installs), { freq: 5 }),
          channel: fc.constantFrom('invite', 'share', 'share', 'ads', ''),
          // Mostly what an app sends; a third of the time anything else beside it.
          data: fc.oneof(
            { arbitrary: fc.constant({ campaign: 'spring' }), weight: 2 },
            {
              arbitrary: fc.dictionary(fc.constantFrom('campaign', 'title', 'rules', 'inviter', 'x'), anything),
              weight: 1,
            },
          ),
          extra: fc.oneof(
            { arbitrary: fc.constant({}), weight: 2 },
            { arbitrary: fc.dictionary(field, anything, { maxKeys: 2 }), weight: 1 },
          ),
        },
        { requiredKeys: ['app', 'who', 'inviter', 'installId'] },
      )
      .map(({ who, inviter, installId, extra, ...rest }) => ({
        ...extra,
        ...rest,
        installId: installId ?? installs[who],
        inviter: inviter ?? users[who],
      }));
    const allRows = async () =>
      (await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM funnel_links').first<{ n: number }>())?.n ?? 0;
    let made = 0;
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const before = await allRows();
        const res = await post('inviting', '/api/a/links', sent);
        expect(res.status, await res.clone().text()).toBeLessThan(500);
        if (res.status !== 201) {
          expect(await allRows()).toBe(before);
          return;
        }
        expect(await allRows()).toBe(before + 1);
        made += 1;
        const { slug } = await res.json<{ slug: string }>();
        const row = await env.FUNNEL_DB.prepare('SELECT * FROM funnel_links WHERE slug = ?1')
          .bind(slug)
          .first<Record<string, unknown>>();
        expect(row).toMatchObject({
          app: 'inviting',
          source: 'app',
          expires_at: null,
          rules: null,
          variants: null,
          password: null,
          preview: null,
        });
        const data = JSON.parse(String(row?.data)) as Record<string, string>;
        expect(Object.keys(data).every((key) => ['channel', 'inviter', 'campaign'].includes(key))).toBe(true);
        expect(invites.channels).toContain(data.channel);
        // The inviter is the user identify() named on that very install.
        expect(data.inviter).toBe(users[installs.indexOf(String(sent.installId))]);
      }),
      { numRuns: 80 },
    );
    // The property saw links made, not only refusals.
    expect(made).toBeGreaterThan(0);
  });
});
