/**
 * No app reads or writes another's (docs/routes.md#apps): random operator requests over three apps on
 * one shared host (`/`, `/@alpha`, `/@beta`), by the admin token or an editor's or a viewer's API key
 * of any of the apps — links, their QR codes and pages, webhook endpoints, test devices, the audit
 * log's page and export — through the real worker, against a model of what each app owns. Slugs and webhook URLs
 * come from small pools, so two apps often own the same slug or URL. Every read answers exactly its
 * app's model; an id of another app's endpoint or device is not found; a key on another app's routes,
 * or past its scopes, is refused and changes nothing; and the funnel counts each app's link views
 * under that app alone.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseExport } from '../../../scripts/lib/audit-check.ts';
import { APPS_KEY } from '../../../shared/apps.ts';
import { isRedacted } from '../../../worker/audit/chain.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { ORIGIN } from '../helpers.ts';

const APPS = ['default', 'alpha', 'beta'] as const;
type App = (typeof APPS)[number];
/** The package a test device is registered for: one the demo configuration lists. */
const PACKAGE = 'com.pebble.notes';
const RUN = crypto.randomUUID().slice(0, 6);
const SLUGS = ['spring', 'summer', 'autumn', 'winter'].map((name) => `${name}-${RUN}`);
const URLS = [0, 1, 2].map((n) => `https://hooks.example.com/${RUN}/${n}`);
const INSTALLS = [0, 1, 2].map((n) => `install-${RUN}-${n}`);
/** Ids no app has: asked for when the app drawn owns none yet, so every step is one request. */
const NO_ENDPOINT = 'ep_AAAAAAAAAAAAAAAA';
const NO_DEVICE = 999_999;
const RUNS = 200;
const STEPS = 50;

interface Owned {
  links: Set<string>;
  /** URL → endpoint id. */
  endpoints: Map<string, string>;
  /** Install id → device id. */
  devices: Map<string, number>;
  /** Slug → views counted. */
  views: Map<string, number>;
}
const model = new Map<App, Owned>(
  APPS.map((app) => [app, { links: new Set(), endpoints: new Map(), devices: new Map(), views: new Map() }]),
);
const owned = (app: App): Owned => model.get(app) as Owned;
let requests = 0;

/**
 * Who calls: the admin token, or an API key of one of the apps — an editor's (links, webhooks, test
 * devices, the audit log) or a viewer's (links and stats, read only).
 */
type Principal = 'token' | `${'editor' | 'viewer'}:${App}`;
const PRINCIPALS: Principal[] = ['token', ...APPS.flatMap((a) => [`editor:${a}`, `viewer:${a}`] as const)];
const KEY_SCOPES: Record<'editor' | 'viewer', string[]> = {
  editor: [
    'links:read',
    'links:write',
    'webhooks:read',
    'webhooks:write',
    'test-devices:read',
    'test-devices:write',
    'audit:read',
    'stats:read',
  ],
  viewer: ['links:read', 'stats:read'],
};
const keys = new Map<Principal, string>();
let principal: Principal = 'token';
let refused = 0;
/** Half the calls by the admin token, half by one of the six keys. */
const principals = fc.oneof(fc.constant<Principal>('token'), fc.constantFrom(...PRINCIPALS.slice(1)));

/** A refused call: the step asserted its 403 and changes nothing in the model. */
class Refused extends Error {}

/** The scope a call needs (docs/operators.md#roles: an area's read scope for GET, its write scope else), none for a public page. */
function scopeOf(method: string, path: string): string | null {
  const area = /^\/api\/([a-z-]+)/.exec(path)?.[1];
  if (!area) return null;
  if (area === 'stats' || area === 'audit') return `${area}:read`;
  return `${area}:${method === 'GET' ? 'read' : 'write'}`;
}

/** Whether the current principal may call `app` with `scope`: a key only on its own app, within its scopes. */
function allowed(app: App, scope: string | null): boolean {
  if (scope === null || principal === 'token') return true;
  const [kind, owner] = principal.split(':') as ['editor' | 'viewer', App];
  return owner === app && KEY_SCOPES[kind].includes(scope);
}

async function call(
  app: App,
  method: string,
  path: string,
  body?: unknown,
  userAgent = 'lander-tests',
): Promise<Response> {
  requests += 1;
  const prefix = app === 'default' ? '' : `/@${app}`;
  const bearer = principal === 'token' ? DEV_ADMIN_TOKEN : keys.get(principal);
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, 'user-agent': userAgent };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method, headers, redirect: 'manual' };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await exports.default.fetch(new Request(`${ORIGIN}${prefix}${path}`, init));
  if (allowed(app, scopeOf(method, path))) return res;
  // Another app's key, or a scope the key lacks: refused, and nothing stored (the model stays).
  expect(res.status, await res.text()).toBe(403);
  throw new Refused();
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** An endpoint or device id of `owner`, asked for by `asker`. */
const anyEndpoint = (owner: App, n: number): string | undefined => [...owned(owner).endpoints.values()][n];
const anyDevice = (owner: App, n: number): number | undefined => [...owned(owner).devices.values()][n];

const app = fc.constantFrom(...APPS);
const slug = fc.constantFrom(...SLUGS);
const pick = fc.nat({ max: 3 });

type Step = () => Promise<void>;

const steps: fc.Arbitrary<Step>[] = [
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'POST', '/api/links', { slug: s, channel: a });
        const taken = owned(a).links.has(s);
        expect(res.status).toBe(taken ? 409 : 201);
        await res.body?.cancel();
        owned(a).links.add(s);
      },
  ),
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'DELETE', `/api/links/${s}`);
        expect(res.status).toBe(owned(a).links.has(s) ? 204 : 404);
        await res.body?.cancel();
        owned(a).links.delete(s);
      },
  ),
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'PATCH', `/api/links/${s}`, { expiresAt: null });
        if (!owned(a).links.has(s)) return void expect(res.status).toBe(404);
        expect((await json<{ data: Record<string, string> }>(res, 200)).data.channel).toBe(a);
      },
  ),
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'GET', `/api/links/${s}`);
        if (!owned(a).links.has(s)) return void expect((await res.text()) && res.status).toBe(404);
        expect((await json<{ data: Record<string, string> }>(res, 200)).data.channel).toBe(a);
      },
  ),
  app.map(
    (a): Step =>
      async () => {
        const { links } = await json<{ links: { slug: string; data: Record<string, string> }[] }>(
          await call(a, 'GET', '/api/links'),
          200,
        );
        const mine = links.filter((link) => link.slug.endsWith(RUN));
        expect(new Set(mine.map((link) => link.slug))).toEqual(owned(a).links);
        for (const link of mine) expect(link.data.channel).toBe(a);
      },
  ),
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'GET', `/s/${s}.svg`);
        expect(res.status).toBe(owned(a).links.has(s) ? 200 : 404);
        await res.body?.cancel();
      },
  ),
  // A person's view of the link's page: counted in the app's funnel under the slug.
  fc.tuple(app, slug).map(
    ([a, s]): Step =>
      async () => {
        const res = await call(a, 'GET', `/s/${s}`, undefined, UA.iPhoneSafari);
        await res.body?.cancel();
        // A link another app owns is not found here, and a page not found is not counted.
        if (!owned(a).links.has(s)) return void expect(res.status).toBe(404);
        expect(res.status).toBe(200);
        owned(a).views.set(s, (owned(a).views.get(s) ?? 0) + 1);
      },
  ),
  // The audit log's page: only the app's own changes (its links made, changed and deleted).
  app.map(
    (a): Step =>
      async () => {
        const { entries } = await json<{ entries: { app: string }[] }>(
          await call(a, 'GET', '/api/audit?kind=link'),
          200,
        );
        for (const entry of entries) expect(entry.app).toBe(a);
      },
  ),
  // The audit log's export, its newest part: the app's own entries whole, every other app's its hashes
  // only (the admin token reads it whole), the part still one chain.
  app.map(
    (a): Step =>
      async () => {
        const newest = await env.FUNNEL_DB.prepare('SELECT MAX(seq) AS seq FROM audit_entries').first<{
          seq: number;
        }>();
        const res = await call(a, 'GET', `/api/audit/export?after=${Math.max(0, (newest?.seq ?? 0) - 40)}`);
        const text = await res.text();
        expect(res.status, text).toBe(200);
        const lines = parseExport(text);
        for (const [index, entry] of lines.entries()) {
          if (isRedacted(entry)) {
            expect(principal).not.toBe('token');
            expect(Object.keys(entry).sort()).toEqual(['hash', 'prevHash', 'redacted', 'seq']);
          } else if (principal !== 'token') expect(entry.app).toBe(a);
          if (index > 0) expect(entry.prevHash).toBe(lines[index - 1]?.hash);
        }
      },
  ),
  fc.tuple(app, fc.constantFrom(...URLS)).map(
    ([a, url]): Step =>
      async () => {
        const res = await call(a, 'POST', '/api/webhooks', { url, events: ['event'] });
        if (owned(a).endpoints.has(url)) return void expect((await res.text()) && res.status).toBe(409);
        const made = await json<{ endpoint: { id: string } }>(res, 201);
        owned(a).endpoints.set(url, made.endpoint.id);
      },
  ),
  fc.tuple(app, app, pick).map(
    ([a, owner, n]): Step =>
      async () => {
        const id = anyEndpoint(owner, n) ?? NO_ENDPOINT;
        const res = await call(a, 'GET', `/api/webhooks/${id}`);
        expect(res.status).toBe(a === owner && id !== NO_ENDPOINT ? 200 : 404);
        await res.body?.cancel();
      },
  ),
  fc.tuple(app, app, pick).map(
    ([a, owner, n]): Step =>
      async () => {
        const id = anyEndpoint(owner, n) ?? NO_ENDPOINT;
        const res = await call(a, 'DELETE', `/api/webhooks/${id}`);
        expect(res.status).toBe(a === owner && id !== NO_ENDPOINT ? 204 : 404);
        await res.body?.cancel();
        if (a === owner)
          for (const [url, known] of owned(a).endpoints) if (known === id) owned(a).endpoints.delete(url);
      },
  ),
  app.map(
    (a): Step =>
      async () => {
        const { endpoints } = await json<{ endpoints: { id: string; url: string }[] }>(
          await call(a, 'GET', '/api/webhooks'),
          200,
        );
        const mine = endpoints.filter((endpoint) => endpoint.url.includes(RUN));
        expect(new Map(mine.map((endpoint) => [endpoint.url, endpoint.id]))).toEqual(owned(a).endpoints);
      },
  ),
  fc.tuple(app, fc.constantFrom(...INSTALLS)).map(
    ([a, installId]): Step =>
      async () => {
        const res = await call(a, 'POST', '/api/test-devices', { app: PACKAGE, installId, label: `${a} ${RUN}` });
        const known = owned(a).devices.get(installId);
        const device = await json<{ id: number; label: string }>(res, known === undefined ? 201 : 200);
        expect(device.label).toBe(`${a} ${RUN}`);
        if (known !== undefined) expect(device.id).toBe(known);
        owned(a).devices.set(installId, device.id);
      },
  ),
  fc.tuple(app, app, pick).map(
    ([a, owner, n]): Step =>
      async () => {
        const id = anyDevice(owner, n) ?? NO_DEVICE;
        const res = await call(a, 'DELETE', `/api/test-devices/${id}`);
        expect(res.status).toBe(a === owner && id !== NO_DEVICE ? 204 : 404);
        await res.body?.cancel();
        if (a === owner)
          for (const [installId, known] of owned(a).devices) if (known === id) owned(a).devices.delete(installId);
      },
  ),
  app.map(
    (a): Step =>
      async () => {
        const { devices } = await json<{ devices: { id: number; label: string }[] }>(
          await call(a, 'GET', '/api/test-devices'),
          200,
        );
        const mine = devices.filter((device) => device.label.endsWith(RUN));
        expect(new Set(mine.map((device) => device.id))).toEqual(new Set(owned(a).devices.values()));
        for (const device of mine) expect(device.label).toBe(`${a} ${RUN}`);
      },
  ),
];

/**
 * A minute passes for the admin token's quota (docs/operators.md#rate-limits): these requests come
 * faster than any operator's, and the quota is not what this file tests.
 */
async function nextMinute(): Promise<void> {
  const limits = (env as unknown as Partial<Record<'OPERATOR_LIMITS', DurableObjectNamespace>>).OPERATOR_LIMITS;
  if (!limits) return;
  await runInDurableObject(limits.get(limits.idFromName('token:token')), (_, state: DurableObjectState) => {
    state.storage.sql.exec('UPDATE window SET start = start - 60000');
  });
}

beforeAll(async () => {
  await env.KV.put(APPS_KEY, JSON.stringify({ apps: APPS.map((id) => ({ id, name: id })) }));
  for (const [kind, scopes] of Object.entries(KEY_SCOPES) as ['editor' | 'viewer', string[]][]) {
    for (const a of APPS) {
      const made = await json<{ key: string }>(
        await call(a, 'POST', '/api/keys', { name: `${kind} ${RUN}`, scopes, rateLimit: 10_000 }),
        201,
      );
      keys.set(`${kind}:${a}`, made.key);
    }
  }
  requests = 0;
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe('three apps on one deployment', () => {
  it(`never show one app's links, endpoints, devices or counts to another, nor take another's key, over ${RUNS * STEPS}+ requests`, {
    timeout: 240_000,
  }, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.oneof(...steps), principals), { minLength: STEPS, maxLength: STEPS }),
        async (run) => {
          await nextMinute();
          for (const [step, who] of run) {
            principal = who;
            try {
              await step();
            } catch (error) {
              if (!(error instanceof Refused)) throw error;
              refused += 1;
            }
          }
          principal = 'token';
        },
      ),
      // The state lives on from run to run (so is the model): a failing run is reported, not shrunk.
      { numRuns: RUNS, endOnFailure: true },
    );
    const stepped = Date.now() - started;
    await nextMinute();
    // Each app's funnel: its views of its own links, counted once each, none of another app's.
    await vi.waitFor(
      async () => {
        for (const a of APPS) {
          const { rows } = await json<{ rows: { key: string; views: number }[] }>(
            await call(a, 'GET', '/api/stats?by=link'),
            200,
          );
          const counted = new Map(rows.filter((row) => row.key.endsWith(RUN)).map((row) => [row.key, row.views]));
          expect(counted).toEqual(new Map([...owned(a).views].filter(([, n]) => n > 0)));
        }
      },
      { timeout: 20_000, interval: 200 },
    );
    console.log(
      `cross-app property: ${requests} requests (${refused} refused), ${stepped} ms stepping, ${Date.now() - started} ms in all`,
    );
    expect(requests).toBeGreaterThanOrEqual(10_000);
  });
});
