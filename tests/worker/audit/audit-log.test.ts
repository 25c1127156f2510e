/**
 * The audit log inside workerd, through the real worker and D1 (docs/operators.md#audit-log): every
 * accepted operator change appends exactly one entry, in the change's own batch, and a refused one
 * none; entries name who and how, keep before and after but never a webhook secret, and chain; the
 * API filters and pages them, the export is what `npm run audit:verify` checks, and the Cron
 * Trigger's run signs the head into R2 with Ed25519 — or counts a loss when it has no key.
 */
import { createScheduledController } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { checkChain, headSigned, parseExport, parseHead } from '../../../scripts/lib/audit-check.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { type AuditEntry, entryHash, isRedacted } from '../../../worker/audit/chain.ts';
import { headKey } from '../../../worker/audit/sign-head.ts';
import worker from '../../../worker/index.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { accessTeam } from '../access-team.ts';
import { expectConforms } from '../conforms.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

const DEV_PUBLIC_KEY = '4kecRdSUSSQYe4xenMcnRdsff4l0_9PD7DekM0W_T3c';

/** An admin call with the development token; `body` as JSON. */
function call(method: string, path: string, body?: unknown): Promise<Response> {
  const headers = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

/** How many entries the log holds. */
async function entryCount(): Promise<number> {
  const row = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM audit_entries').first<{ n: number }>();
  return row?.n ?? 0;
}

/** The newest entry, as the API gives it. */
async function newest(): Promise<AuditEntry> {
  const page = (await (await call('GET', '/api/audit?limit=1')).json()) as { entries: AuditEntry[] };
  return page.entries[0] as AuditEntry;
}

/** Runs `write`, expects its status, and answers how many entries it appended. */
async function appended(write: () => Promise<Response>, status: number): Promise<number> {
  const before = await entryCount();
  const res = await write();
  expect(res.status, await res.clone().text()).toBe(status);
  return (await entryCount()) - before;
}

const slug = () => `audit-${crypto.randomUUID().slice(0, 8)}`;

describe('one entry per accepted change, none for a refused one', () => {
  it('links: created, moved, deleted; a taken slug, a bad body, a past expiry and an unknown slug append none', async () => {
    const name = slug();
    expect(await appended(() => call('POST', '/api/links', { channel: 'audit', slug: name }), 201)).toBe(1);
    expect(await newest()).toMatchObject({
      kind: 'link',
      action: 'created',
      target: name,
      actor: 'token',
      via: 'token',
      app: 'default',
      before: null,
    });
    expect(await appended(() => call('POST', '/api/links', { channel: 'audit', slug: name }), 409)).toBe(0);
    expect(await appended(() => call('POST', '/api/links', { channel: 7 }), 400)).toBe(0);
    const later = '2031-01-01T00:00:00.000Z';
    expect(await appended(() => call('PATCH', `/api/links/${name}`, { expiresAt: later }), 200)).toBe(1);
    const moved = await newest();
    expect(moved).toMatchObject({
      action: 'updated',
      before: { expiresAt: null },
      after: { expiresAt: Date.parse(later) },
    });
    expect(await appended(() => call('PATCH', `/api/links/${name}`, { expiresAt: '2001-01-01T00:00:00Z' }), 400)).toBe(
      0,
    );
    expect(await appended(() => call('DELETE', `/api/links/${name}`), 204)).toBe(1);
    expect(await newest()).toMatchObject({ action: 'deleted', target: name, after: null });
    expect(await appended(() => call('DELETE', `/api/links/${name}`), 404)).toBe(0);
  });

  it('webhooks: created, changed, rotated, deleted, never with a secret; a taken URL appends none', async () => {
    const url = `https://hooks.example.com/${slug()}`;
    let secret = '';
    expect(
      await appended(async () => {
        const res = await call('POST', '/api/webhooks', { url, description: 'CRM' });
        secret = ((await res.clone().json()) as { secret: string }).secret;
        return res;
      }, 201),
    ).toBe(1);
    const made = await newest();
    expect(made).toMatchObject({ kind: 'webhook', action: 'created', after: { url, description: 'CRM' } });
    const id = made.target;
    expect(await appended(() => call('POST', '/api/webhooks', { url }), 409)).toBe(0);
    expect(await appended(() => call('PATCH', `/api/webhooks/${id}`, { description: 'ERP' }), 200)).toBe(1);
    expect(await newest()).toMatchObject({
      action: 'updated',
      before: { description: 'CRM' },
      after: { description: 'ERP' },
    });
    let rotated = '';
    expect(
      await appended(async () => {
        const res = await call('POST', `/api/webhooks/${id}/rotate`);
        rotated = ((await res.clone().json()) as { secret: string }).secret;
        return res;
      }, 200),
    ).toBe(1);
    expect(await newest()).toMatchObject({ action: 'rotated', target: id });
    expect(await appended(() => call('DELETE', `/api/webhooks/${id}`), 204)).toBe(1);
    const kept = JSON.stringify((await env.FUNNEL_DB.prepare('SELECT * FROM audit_entries').all()).results);
    expect(kept).not.toContain(secret);
    expect(kept).not.toContain(rotated);
    expect(await appended(() => call('DELETE', `/api/webhooks/${id}`), 404)).toBe(0);
  });

  it('test devices: registered, forgotten; registering again and forgetting an unknown one append none', async () => {
    const device = { app: 'com.pebble.notes', installId: `audit-${crypto.randomUUID()}`, label: 'QA phone' };
    expect(await appended(() => call('POST', '/api/test-devices', device), 201)).toBe(1);
    const made = await newest();
    expect(made).toMatchObject({
      kind: 'test-device',
      action: 'created',
      after: { app: device.app, label: 'QA phone' },
    });
    expect(JSON.stringify(made)).not.toContain(device.installId);
    expect(await appended(() => call('POST', '/api/test-devices', device), 200)).toBe(0);
    const listed = (await (await call('GET', '/api/test-devices')).json()) as {
      devices: { id: number; device: string }[];
    };
    const id = listed.devices.find((one) => one.device === made.target)?.id;
    expect(await appended(() => call('DELETE', `/api/test-devices/${id}`), 204)).toBe(1);
    expect(await newest()).toMatchObject({ action: 'deleted', target: made.target, after: null });
    expect(await appended(() => call('DELETE', `/api/test-devices/${id}`), 404)).toBe(0);
  });

  it('changes at the same moment each get one entry, in one unbroken chain', async () => {
    const before = await entryCount();
    const made = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/api/links', { channel: 'rush', slug: slug() })),
    );
    expect(made.map((res) => res.status)).toEqual(Array(8).fill(201));
    expect((await entryCount()) - before).toBe(8);
    const exported = parseExport(await (await call('GET', '/api/audit/export')).text());
    expect(await checkChain(exported)).toMatchObject({ ok: true, seq: exported.length });
  });

  it('names the signed-in person from Cloudflare Access', async () => {
    const { key, claims, bindings } = await accessTeam();
    const jwt = await key.sign({ ...claims, email: 'ana@example.com' });
    const res = await fetchWorker(
      `${ORIGIN}/api/links`,
      {
        method: 'POST',
        headers: {
          'cf-access-jwt-assertion': jwt,
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
        },
        body: JSON.stringify({ channel: 'access', slug: slug() }),
      },
      { ...bindings, DECODE_KEY: 'AuditTestKey2026' },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await newest()).toMatchObject({ actor: 'ana@example.com', via: 'sign-in' });
  });
});

describe('GET /api/audit and its export', () => {
  it('filters by kind and target, pages by seq, refuses a wrong parameter naming it, as the OpenAPI document says', async () => {
    const name = slug();
    await call('POST', '/api/links', { channel: 'filters', slug: name });
    await call('PATCH', `/api/links/${name}`, { expiresAt: null });
    const byTarget = (await (await call('GET', `/api/audit?target=${name}`)).json()) as { entries: AuditEntry[] };
    expect(byTarget.entries.map((entry) => entry.action)).toEqual(['updated', 'created']);
    const links = (await (await call('GET', '/api/audit?kind=link&limit=1')).json()) as {
      entries: AuditEntry[];
      next: number;
    };
    expect(links.entries).toHaveLength(1);
    const next = (await (await call('GET', `/api/audit?kind=link&limit=1&before=${links.next}`)).json()) as {
      entries: AuditEntry[];
    };
    expect(next.entries[0]?.seq).toBeLessThan(links.next);
    const webhooksOnly = (await (await call('GET', '/api/audit?kind=webhook')).json()) as { entries: AuditEntry[] };
    expect(webhooksOnly.entries.every((entry) => entry.kind === 'webhook')).toBe(true);
    const future = (await (await call('GET', '/api/audit?from=2099-01-01T00:00:00Z')).json()) as {
      entries: AuditEntry[];
    };
    expect(future.entries).toEqual([]);
    for (const [query, field] of [
      ['kind=links', 'kind'],
      ['limit=0', 'limit'],
      ['from=yesterday', 'from'],
      ['before=x', 'before'],
    ]) {
      const res = await call('GET', `/api/audit?${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`^${field}: `));
    }
    expect((await exports.default.fetch(new Request(`${ORIGIN}/api/audit`))).status).toBe(401);
    await expectConforms(await call('GET', `/api/audit?target=${name}`), '/api/audit', 'get');
    await expectConforms(await call('GET', '/api/audit?kind=links'), '/api/audit', 'get');
  });

  it('exports every entry as NDJSON whose hashes are their contents’', async () => {
    await call('POST', '/api/links', { channel: 'export', slug: slug() });
    const res = await call('GET', '/api/audit/export');
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const entries = parseExport(await res.text());
    expect(entries.length).toBe(await entryCount());
    for (const entry of entries) {
      // The admin token, owner of every app, reads the log whole: no entry redacted.
      expect(isRedacted(entry)).toBe(false);
      expect(await entryHash(entry as AuditEntry)).toBe(entry.hash);
    }
  });
});

describe('the daily signed head', () => {
  it('is written to R2 by the scheduled run, signed with Ed25519 over the log’s head', async () => {
    await call('POST', '/api/links', { channel: 'head', slug: slug() });
    const time = Date.parse('2026-11-29T00:15:00Z');
    await worker.scheduled(createScheduledController({ scheduledTime: time, cron: '15 0 * * *' }), env);
    const object = await env.EXPORTS.get(headKey(utcDay(time)));
    const head = parseHead((await object?.text()) ?? '');
    const entries = parseExport(await (await call('GET', '/api/audit/export')).text());
    expect(head).toMatchObject({
      seq: entries.length,
      hash: entries.at(-1)?.hash,
      at: time,
      publicKey: DEV_PUBLIC_KEY,
    });
    expect(await headSigned(head, DEV_PUBLIC_KEY)).toBe(true);
    expect(await headSigned({ ...head, seq: head.seq - 1 }, DEV_PUBLIC_KEY)).toBe(false);
    expect(await checkChain(entries, head)).toMatchObject({ ok: true });
  });

  it('is skipped without a key, counted as lost, and the run goes on', async () => {
    const time = Date.parse('2026-11-30T00:15:00Z');
    const production = { ...env, LANDER_ENV: 'production', AUDIT_SIGNING_KEY: '' };
    await worker.scheduled(createScheduledController({ scheduledTime: time, cron: '15 0 * * *' }), production);
    expect(await env.EXPORTS.get(headKey(utcDay(time)))).toBeNull();
    const lost = await env.FUNNEL_DB.prepare("SELECT n FROM losses WHERE what = 'audit-heads' AND day = ?")
      .bind(utcDay(time))
      .first<{ n: number }>();
    expect(lost?.n).toBe(1);
  });
});
