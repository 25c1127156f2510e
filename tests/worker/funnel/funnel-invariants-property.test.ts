/**
 * The figures' invariants (docs/operators.md#what-each-figure-counts), held for random traffic through
 * the real worker, the real queue and D1: browsers view pages, reload them, tap, come back on later
 * days; apps install (with the tap's carrier, without one, as a test device, with a carrier another
 * install already claimed), retry their installs and send app events, some retried. `/api/stats`
 * must then give, by day, channel, inviter and link, exactly what a reference count of the same
 * traffic gives — and so visitors ≤ views in every row, a visitor who taps is one visitor, a retried
 * install one install, attributed + organic = installs, test installs never.
 *
 * Each run lives on days of its own (the clock is set to them: `Date` only, timers run), so runs never
 * share rows, the "(none)" channel of organic installs included.
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/day-range.ts';
import type { StatsResult, StatsRow } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { APP_ID, clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, campaign, carrierLink, issueClickId, send } from '../app-calls.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const BROWSERS = 3;
const GROUPINGS = ['day', 'channel', 'inviter', 'link'] as const;
type Grouping = (typeof GROUPINGS)[number];

// Views and taps weigh most: a browser must view before it can tap, and an install finds a tap's carrier.
const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('view' as const), browser: fc.nat(BROWSERS - 1), page: fc.nat(2) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reload' as const), browser: fc.nat(BROWSERS - 1) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tap' as const),
      browser: fc.nat(BROWSERS - 1),
      action: fc.constantFrom('download', 'store', 'open', 'guide'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('install' as const),
      browser: fc.nat(BROWSERS - 1),
      carrier: fc.boolean(),
      test: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), install: fc.nat(9) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      install: fc.nat(9),
      named: fc.boolean(),
      again: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'nextDay' as const }) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** What one counted fact adds to a row, by grouping. */
interface Fact {
  day: string;
  channel: string;
  inviter: string;
  link: string;
  views?: number;
  taps?: number;
  attributed?: number;
  organic?: number;
  events?: number;
  /** A view's browser: the visitor. */
  visitor?: string;
}

interface Page {
  d: string;
  channel: string;
  inviter: string;
  link: string;
}

interface Install {
  body: Record<string, unknown>;
  address: string;
  test: boolean;
  /** The campaign of its answer (none when unmatched). */
  channel: string;
  inviter: string;
  matched: boolean;
}

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** A short link of `channel` and `inviter`: its slug and the token its page carries (which its taps send back). */
async function createLink(channel: string, inviter: string): Promise<{ slug: string; d: string }> {
  const res = await send('/api/links', { channel, inviter }, { ...ADMIN });
  expect(res.status).toBe(201);
  const { slug, url } = (await res.json()) as { slug: string; url: string };
  return { slug, d: new URL(url).searchParams.get('d') ?? '' };
}

let runs = 0;
// Each run starts 5 days after the last one began (at most 3 days a run), in a past no other test writes.
const dayOfRun = (run: number) => addDays('2003-01-01', run * 5);

/** Drives `steps` through the worker on the run's days; answers the facts a reference count expects. */
async function drive(steps: Step[], run: number): Promise<{ facts: Fact[]; days: string[] }> {
  const first = dayOfRun(run);
  let day = first;
  vi.setSystemTime(new Date(`${day}T12:00:00Z`));
  const [one, two] = [freshChannel(), freshChannel()];
  const link = await createLink(one, 'Cai');
  const pages: Page[] = [
    { d: campaign({ channel: one, inviter: 'Ann' }), channel: one, inviter: 'Ann', link: '' },
    { d: campaign({ channel: two, inviter: 'Bo' }), channel: two, inviter: 'Bo', link: '' },
    { d: link.d, channel: one, inviter: 'Cai', link: link.slug },
  ];

  const browsers = Array.from({ length: BROWSERS }, (_, at) => ({
    address: `192.0.${run % 250}.${10 + at}`,
    agent: at === 2 ? UA.androidChrome : UA.iPhoneSafari,
    visitorId: null as string | null,
    page: null as Page | null,
    clickIds: [] as string[],
  }));
  const facts: Fact[] = [];
  const installs: Install[] = [];
  const sentEvents: { install: number; id: string }[] = [];
  let appNetwork = 0;

  const view = async (browser: (typeof browsers)[number], page: Page) => {
    const path = page.link ? `/s/${page.link}` : `/landing?d=${page.d}`;
    const headers: Record<string, string> = { 'user-agent': browser.agent, 'cf-connecting-ip': browser.address };
    if (browser.visitorId) headers.cookie = `user_id=${browser.visitorId}`;
    const res = await exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers }));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // The page then resolves its visitor id and stores it: the reload and the taps carry it.
    browser.visitorId ??= crypto.randomUUID();
    browser.page = page;
    const { channel, inviter, link } = page;
    facts.push({ day, channel, inviter, link, views: 1, visitor: `${day}/${browser.address}` });
  };

  for (const next of steps) {
    switch (next.kind) {
      case 'view': {
        const browser = browsers[next.browser];
        if (browser) await view(browser, pages[next.page] as Page);
        break;
      }
      case 'reload': {
        const browser = browsers[next.browser];
        if (browser?.page) await view(browser, browser.page);
        break;
      }
      case 'tap': {
        const browser = browsers[next.browser];
        const page = browser?.page;
        if (!browser || !page) break;
        const clickId = await issueClickId();
        const body = {
          ...clickBody(PHONES.iPhone15, {
            clickId,
            action: next.action,
            d: page.d,
            ...(browser.visitorId ? { visitorId: browser.visitorId } : {}),
          }),
          ...(page.link ? { link: page.link } : {}),
        };
        const res = await send('/api/a/click', body, {
          'user-agent': browser.agent,
          'cf-connecting-ip': browser.address,
        });
        expect(res.status).toBe(204);
        browser.clickIds.push(`${clickId}.${page.d}`);
        facts.push({ day, channel: page.channel, inviter: page.inviter, link: page.link, taps: 1 });
        break;
      }
      case 'install': {
        const browser = browsers[next.browser];
        // A carrier of the browser's taps: its first, so a second install with it is the claimed one.
        const carrier = next.carrier ? browser?.clickIds[0] : undefined;
        appNetwork += 1;
        // Each install from a network of its own: no tap shares it, so only a carrier can match.
        const address = `198.18.${run % 250}.${appNetwork}`;
        const body: Record<string, unknown> = {
          ...installBody(
            PHONES.iPhone15,
            `install-${crypto.randomUUID()}`,
            carrier ? { clipboard: carrierLink(carrier) } : undefined,
            APP_ID,
          ),
          ...(next.test ? { test: true } : {}),
        };
        // Only a registered test device's `test: true` is a test (docs/attribution.md, "Test devices").
        if (next.test) {
          const registered = await send('/api/test-devices', { app: APP_ID, installId: body.installId }, ADMIN);
          expect(registered.status, await registered.clone().text()).toBeLessThan(300);
        }
        const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': address });
        expect(res.status, await res.clone().text()).toBe(200);
        const answer = (await res.json()) as { matched: boolean; data?: Record<string, string> };
        const install: Install = {
          body,
          address,
          test: next.test,
          matched: answer.matched,
          channel: answer.matched ? (answer.data?.channel ?? '') : '',
          inviter: answer.matched ? (answer.data?.inviter ?? '') : '',
        };
        installs.push(install);
        if (!next.test)
          facts.push({
            day,
            channel: install.channel,
            inviter: install.inviter,
            link: '',
            ...(answer.matched ? { attributed: 1 } : { organic: 1 }),
          });
        break;
      }
      case 'retry': {
        const install = installs[next.install % Math.max(1, installs.length)];
        if (!install) break;
        const res = await send('/api/a/install', install.body, { ...APP_HEADERS, 'cf-connecting-ip': install.address });
        expect(res.status).toBe(200);
        break;
      }
      case 'event': {
        const at = next.install % Math.max(1, installs.length);
        const install = installs[at];
        if (!install) break;
        const again = next.again ? sentEvents.find((sent) => sent.install === at) : undefined;
        const id = again?.id ?? (next.named ? `e-${crypto.randomUUID().slice(0, 8)}` : undefined);
        const res = await send(
          '/api/a/event',
          { app: APP_ID, installId: install.body.installId, name: 'register', ...(id ? { id } : {}) },
          { ...APP_HEADERS, 'cf-connecting-ip': install.address },
        );
        expect(res.status).toBe(204);
        if (again) break;
        if (id) sentEvents.push({ install: at, id });
        if (!install.test) facts.push({ day, channel: install.channel, inviter: install.inviter, link: '', events: 1 });
        break;
      }
      case 'nextDay': {
        if (day === addDays(first, 2)) break;
        day = addDays(day, 1);
        vi.setSystemTime(new Date(`${day}T12:00:00Z`));
        break;
      }
    }
  }
  // Read on the run's last day: the stats refuse a range past tomorrow.
  vi.setSystemTime(new Date(`${addDays(first, 2)}T12:00:00Z`));
  return { facts, days: [first, addDays(first, 2)] };
}

/** The reference figures of `facts` grouped by `by`. */
function reference(
  facts: Fact[],
  by: Grouping,
): Map<string, Required<Omit<Fact, Grouping | 'visitor'>> & { visitors: number }> {
  const rows = new Map<
    string,
    { views: number; taps: number; attributed: number; organic: number; events: number; visitors: Set<string> }
  >();
  for (const fact of facts) {
    const key = fact[by];
    const row = rows.get(key) ?? {
      views: 0,
      taps: 0,
      attributed: 0,
      organic: 0,
      events: 0,
      visitors: new Set<string>(),
    };
    row.views += fact.views ?? 0;
    row.taps += fact.taps ?? 0;
    row.attributed += fact.attributed ?? 0;
    row.organic += fact.organic ?? 0;
    row.events += fact.events ?? 0;
    if (fact.visitor) row.visitors.add(fact.visitor);
    rows.set(key, row);
  }
  return new Map([...rows].map(([key, { visitors, ...row }]) => [key, { ...row, visitors: visitors.size }]));
}

const figures = (row: StatsRow) => ({
  views: row.views,
  taps: row.taps,
  attributed: row.attributed,
  organic: row.organic,
  events: row.events.register ?? 0,
  visitors: row.visitors,
});

const empty = (row: ReturnType<typeof figures>) => Object.values(row).every((count) => count === 0);

describe("the figures' invariants, through the worker, the queue and D1", () => {
  afterAll(() => {
    vi.useRealTimers();
  });

  it('hold for random views, reloads, taps, returns, installs, retries, test installs and events, by day, channel, inviter and link', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 20 }), async (steps) => {
        runs += 1;
        const { facts, days } = await drive(steps, runs);
        const range = `from=${days[0]}&to=${days[1]}`;
        const expected = Object.fromEntries(GROUPINGS.map((by) => [by, Object.fromEntries(reference(facts, by))]));
        const read = async () =>
          Object.fromEntries(
            await Promise.all(
              GROUPINGS.map(async (by) => {
                const { rows } = await stats(`by=${by}&${range}`);
                for (const row of rows) {
                  // The invariants, row by row, whatever the reference says.
                  expect(row.visitors).toBeLessThanOrEqual(row.views);
                  expect(row.installs).toBe(row.attributed + row.organic);
                }
                return [
                  by,
                  Object.fromEntries(
                    rows
                      .map((row) => [row.key, figures(row)])
                      .filter(([, row]) => !empty(row as ReturnType<typeof figures>)),
                  ),
                ];
              }),
            ),
          );
        // The queue delivers within a second or two, much later beside a whole suite on two cores; the
        // figures only grow towards the reference.
        await expect.poll(read, { timeout: 45_000, interval: 500 }).toEqual(expected);
      }),
      // Bounded: a failure found is still reported when shrinking it runs out of time.
      { numRuns: 10, interruptAfterTimeLimit: 150_000 },
    );
  }, 240_000);
});
