/**
 * The audit log's export read by one app's caller (docs/operators.md#audit-log): the chain is the
 * deployment's, so an app's API key gets its own entries whole and every other app's redacted to its
 * seq and hashes — no slug, actor or before/after of another app leaves — and the file still verifies
 * from seq 1 as `npm run audit:verify` checks it. The admin token, owner of every app, reads it whole.
 */
import { env, exports } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkChain, parseExport } from '../../../scripts/lib/audit-check.ts';
import { APPS_KEY } from '../../../shared/apps.ts';
import { isRedacted } from '../../../worker/audit/chain.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { ORIGIN } from '../helpers.ts';

const RUN = crypto.randomUUID().slice(0, 8);
const keys = new Map<string, string>();

function call(app: string, path: string, bearer: string, body?: unknown): Promise<Response> {
  const prefix = app === 'default' ? '' : `/@${app}`;
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) };
  return exports.default.fetch(new Request(`${ORIGIN}${prefix}${path}`, init));
}

async function exported(app: string, bearer: string) {
  const res = await call(app, '/api/audit/export', bearer);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { text, entries: parseExport(text) };
}

beforeAll(async () => {
  await env.KV.put(APPS_KEY, JSON.stringify({ apps: ['default', 'alpha'].map((id) => ({ id, name: id })) }));
  for (const app of ['default', 'alpha']) {
    const made = await call(app, '/api/keys', DEV_ADMIN_TOKEN, { name: `auditor ${RUN}`, scopes: ['audit:read'] });
    expect(made.status).toBe(201);
    keys.set(app, ((await made.json()) as { key: string }).key);
    const link = await call(app, '/api/links', DEV_ADMIN_TOKEN, { slug: `${app}-secret-${RUN}`, channel: app });
    expect(link.status).toBe(201);
  }
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe("an app's export of the deployment's audit log", () => {
  it.each(['default', 'alpha'])(
    'shows %s its own entries whole, the others as hashes, and verifies whole',
    async (app) => {
      const other = app === 'default' ? 'alpha' : 'default';
      const mine = await exported(app, keys.get(app) as string);
      const all = await exported('default', DEV_ADMIN_TOKEN);
      // The same chain, line for line: each of this app's entries whole, each other's its hashes only.
      expect(mine.entries.map((entry) => entry.hash)).toEqual(all.entries.map((entry) => entry.hash));
      for (const [index, entry] of mine.entries.entries()) {
        const whole = all.entries[index];
        if (whole && !isRedacted(whole) && whole.app === app) expect(entry).toEqual(whole);
        else expect(Object.keys(entry).sort()).toEqual(['hash', 'prevHash', 'redacted', 'seq']);
      }
      expect(mine.entries.some(isRedacted)).toBe(true);
      expect(mine.text).toContain(`${app}-secret-${RUN}`);
      expect(mine.text).not.toContain(`${other}-secret-${RUN}`);
      expect(await checkChain(mine.entries)).toMatchObject({ ok: true, seq: all.entries.length });
      // The admin token's export is the log whole.
      expect(all.entries.some(isRedacted)).toBe(false);
    },
  );
});
