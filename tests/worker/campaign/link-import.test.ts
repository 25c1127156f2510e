/**
 * `npm run import` through the real worker (docs/operators.md#bring-your-links): sample exports
 * (tests/fixtures/import/) read, carried and stored through the links API; the links resolve under
 * their own slugs with their targets; a re-run changes nothing; a changed target is a conflict left
 * alone unless overwritten; `GET /api/links/<slug>` answers one link.
 */
import { describe, expect, it } from 'vitest';
import { carryAll } from '../../../scripts/lib/link-import/carry.ts';
import { readExport } from '../../../scripts/lib/link-import/read-export.ts';
import { type AdminCall, importLinks, type Outcome } from '../../../scripts/lib/link-import/run.ts';
import type { LinkView } from '../../../shared/admin-contract.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import bitlyCsv from '../../fixtures/import/bitly.csv?raw';
import firebaseCsv from '../../fixtures/import/firebase.csv?raw';
import sinkJson from '../../fixtures/import/sink.json?raw';
import { fetchWorker, ORIGIN } from '../helpers.ts';

/** The admin API as the CLI calls it, on the worker itself. */
const call: AdminCall = (path, init = {}) =>
  fetchWorker(`${ORIGIN}${path}`, {
    ...init,
    headers: { ...Object.fromEntries(new Headers(init.headers)), authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
  });

/** Imports `text` as the CLI does, now. */
async function importText(text: string, options = { dryRun: false, overwrite: false }): Promise<Outcome[]> {
  const read = readExport(text);
  if (!read.ok) throw new Error(read.reason);
  return importLinks(call, carryAll(read.links, { allowHosts: [], now: Date.now() }), options);
}

const kinds = (outcomes: Outcome[]) => Object.fromEntries(outcomes.map((o) => [o.slug, o.kind]));

async function stored(slug: string): Promise<LinkView | null> {
  const res = await call(`/api/links/${slug}`);
  return res.status === 200 ? res.json<LinkView>() : null;
}

describe('npm run import through the worker', () => {
  it('stores a Firebase export under its slugs, reports what it cannot carry, and changes nothing on a re-run', async () => {
    const first = await importText(firebaseCsv);
    expect(kinds(first)).toEqual({
      spring: 'created',
      'app-home': 'created',
      Promo1: 'not carried',
      legacy: 'not carried',
    });
    const spring = await stored('spring');
    expect(spring?.data).toEqual({
      link: 'https://shop.example.com/p/42?promo=spring',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring-sale',
      channel: 'newsletter',
    });
    const page = await fetchWorker(`${ORIGIN}/s/spring`);
    expect(page.status).toBe(200);
    expect((await fetchWorker(`${ORIGIN}/s/app-home`)).status).toBe(200);

    const listed = async () => ((await (await call('/api/links')).json()) as { links: LinkView[] }).links;
    const before = await listed();
    const again = await importText(firebaseCsv);
    expect(kinds(again)).toEqual({
      spring: 'unchanged',
      'app-home': 'unchanged',
      Promo1: 'not carried',
      legacy: 'not carried',
    });
    expect(await listed()).toEqual(before);
  });

  it('carries expiries and stores nothing on a dry run', async () => {
    const dry = await importText(sinkJson, { dryRun: true, overwrite: false });
    expect(kinds(dry)).toEqual({ blog: 'would create', 'far-future': 'would create', Team: 'not carried' });
    expect(await stored('blog')).toBeNull();

    await importText(sinkJson);
    expect((await stored('far-future'))?.expiresAt).toBe('2100-01-01T00:00:00.000Z');
    expect((await stored('blog'))?.data).toEqual({ link: 'https://blog.example.com/' });
  });

  it('leaves a slug stored with another target alone, and replaces it only with overwrite', async () => {
    const created = await call('/api/links', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'summer-deal', channel: 'poster' }),
    });
    expect(created.status).toBe(201);

    const conflict = (await importText(bitlyCsv)).find((o) => o.slug === 'summer-deal');
    expect(conflict).toMatchObject({ kind: 'conflict' });
    expect(conflict?.reason).toContain('link');
    expect((await stored('summer-deal'))?.data).toEqual({ channel: 'poster' });

    const replaced = (await importText(bitlyCsv, { dryRun: false, overwrite: true })).find(
      (o) => o.slug === 'summer-deal',
    );
    expect(replaced?.kind).toBe('overwritten');
    expect((await stored('summer-deal'))?.data.link).toBe(
      'https://shop.example.com/summer?utm_source=instagram&utm_medium=social&utm_campaign=summer',
    );
    expect(kinds(await importText(bitlyCsv))['summer-deal']).toBe('unchanged');
  });
});

describe('GET /api/links/<slug>', () => {
  it('answers the link, expired or not, 404 for none, and only an operator', async () => {
    await importText(sinkJson);
    const res = await call('/api/links/blog');
    expect(res.status).toBe(200);
    expect(await res.json<LinkView>()).toMatchObject({ slug: 'blog', shortUrl: `${ORIGIN}/s/blog` });
    const missing = await call('/api/links/no-such-link');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'slug: no such link' });
    expect((await fetchWorker(`${ORIGIN}/api/links/blog`)).status).toBe(401);
  });
});
