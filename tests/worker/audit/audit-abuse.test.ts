/**
 * The audit log's API and `GET /api/links/<slug>` against a hostile caller, through the real worker
 * and D1 (docs/security.md#attacks-and-what-holds-them): no answer without a sign-in, none kept by a
 * cache, the export in bounded parts joined by `Link: rel="next"`, a parameter given twice or unknown
 * refused by name, and a value never echoed as markup.
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../worker/audit/chain.ts';
import { EXPORT_SPAN } from '../../../worker/audit/entries.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { ORIGIN } from '../helpers.ts';

function call(path: string, method = 'GET', body?: unknown, signedIn = true): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signedIn) headers.authorization = `Bearer ${DEV_ADMIN_TOKEN}`;
  const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

const slug = () => `abuse-${crypto.randomUUID().slice(0, 8)}`;
const lines = async (res: Response) =>
  (await res.text())
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEntry);

describe('the audit log and a link, to a caller not signed in', () => {
  it('answers 401 with no-store on every path and method, the same for a stored slug as for none', async () => {
    const stored = slug();
    expect((await call('/api/links', 'POST', { channel: 'abuse', slug: stored })).status).toBe(201);
    const paths = [
      '/api/audit',
      '/api/audit/',
      '/api/audit/export',
      '/api/audit/export?after=0',
      `/api/links/${stored}`,
      `/api/links/${slug()}`,
    ];
    const answers = [];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD']) {
        const res = await call(path, method, undefined, false);
        answers.push([path, method, res.status, res.headers.get('cache-control'), await res.text()]);
      }
    }
    for (const [path, method, status, cache, body] of answers) {
      expect([path, method, status, cache]).toEqual([path, method, 401, 'no-store']);
      expect(body).not.toContain('abuse');
    }
  });

  it('keeps no signed-in answer in a cache: no-store on the page, the export and a link', async () => {
    const stored = slug();
    await call('/api/links', 'POST', { channel: 'abuse', slug: stored });
    for (const path of ['/api/audit', '/api/audit/export', `/api/links/${stored}`, '/api/audit?limit=0']) {
      expect((await call(path)).headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe('the export, bounded', () => {
  it('answers the entries after `after` and names no next part when it holds the rest', async () => {
    await call('/api/links', 'POST', { channel: 'abuse', slug: slug() });
    await call('/api/links', 'POST', { channel: 'abuse', slug: slug() });
    const whole = await lines(await call('/api/audit/export'));
    const after = whole.length - 1;
    const res = await call(`/api/audit/export?after=${after}`);
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`audit-\\d{4}-\\d\\d-\\d\\d-after-${after}\\.ndjson`),
    );
    expect((await lines(res)).map((entry) => entry.seq)).toEqual([after + 1]);
  });

  it(`answers at most ${EXPORT_SPAN} entries and a Link to the next part; the parts join into the whole`, async () => {
    await call('/api/links', 'POST', { channel: 'abuse', slug: slug() });
    const far = EXPORT_SPAN + 2;
    // A log longer than one part, without writing 100,000 entries: the newest entry's seq is past the span.
    await env.FUNNEL_DB.prepare(
      `INSERT INTO audit_entries (seq, at, actor, via, app, kind, action, target, before, after, prev_hash, hash)
       VALUES (?1, 0, 'token', 'token', 'default', 'link', 'created', 'far', 'null', 'null', ?2, ?2)`,
    )
      .bind(far, '0'.repeat(64))
      .run();
    try {
      const first = await call('/api/audit/export');
      expect(first.headers.get('link')).toBe(`</api/audit/export?after=${EXPORT_SPAN}>; rel="next"`);
      expect((await lines(first)).every((entry) => entry.seq <= EXPORT_SPAN)).toBe(true);
      const next = await call(`/api/audit/export?after=${EXPORT_SPAN}`);
      expect(next.headers.get('link')).toBeNull();
      expect((await lines(next)).map((entry) => entry.seq)).toEqual([far]);
    } finally {
      await env.FUNNEL_DB.prepare('DELETE FROM audit_entries WHERE seq = ?1').bind(far).run();
    }
  });
});

describe('parameters abused', () => {
  it.each([
    ['/api/audit?kind=link&kind=webhook', 'kind: given 2 times; give it once'],
    ['/api/audit?limit=1&limit=200', 'limit: given 2 times; give it once'],
    ['/api/audit/export?after=1&after=2', 'after: given 2 times; give it once'],
    [
      '/api/audit?offset=100000',
      'offset: not a parameter of this route; it takes kind, actor, target, from, to, before, limit',
    ],
    ['/api/audit/export?limit=1000000', 'limit: not a parameter of this route; it takes after'],
    ['/api/audit/export?after=-1', 'after: must be an entry’s seq, a whole number from 0'],
    ['/api/audit/export?after=1e9', 'after: must be an entry’s seq, a whole number from 0'],
    ['/api/audit?limit=201', 'limit: must be a whole number from 1 to 200'],
    ['/api/audit?limit=0', 'limit: must be a whole number from 1 to 200'],
    ['/api/audit?before=99999999999999999999', 'before: must be an entry’s seq, a whole number from 1'],
    [`/api/audit?actor=${'a'.repeat(201)}`, 'actor: must be at most 200 characters'],
  ])('%s: 400 naming the parameter', async (path, error) => {
    const res = await call(path);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('echoes no value as markup: every refusal is JSON, never sniffed as HTML', async () => {
    for (const path of ['/api/audit?%3Cscript%3E=1', '/api/audit?kind=%3Cimg%20src%3Dx%3E', '/api/links/%3Csvg%3E']) {
      const res = await call(path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).not.toMatch(/<img|<svg/);
    }
  });
});
