/**
 * The configuration's admin API through the real worker, KV and D1 (docs/config.md#through-the-admin-api):
 * `PUT /api/config` refuses what `npm run config:push` refuses, with each problem's path, stores an
 * accepted document under its app's key and appends exactly one audit entry of kind `config` with
 * before and after — none for a refusal, for the same document again, or when the log cannot take
 * it (the document before is then put back); `GET /api/config` reads it; each needs its scope.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { CONFIG_KEY } from '../../../shared/config/schema.ts';
import type { AuditEntry } from '../../../worker/audit/chain.ts';
import demo from '../../../worker/config/demo.json';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { accessTeam } from '../access-team.ts';
import { expectConforms } from '../conforms.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { clearMembers, seedMember } from '../team/team-fixtures.ts';

/** The demo as revision `revision`: a valid document of its own. */
const revisionOf = (revision: string) => ({ ...demo, revision });

/** A call as the development admin token, over `bindings`; `body` as JSON, or raw text. */
function call(method: string, path: string, body?: unknown, bindings: Partial<Env> = {}): Promise<Response> {
  const headers = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetchWorker(`${ORIGIN}${path}`, { method, headers, ...(body === undefined ? {} : { body: text }) }, bindings);
}

/** The audit entries of kind `config`, oldest first. */
async function configEntries(): Promise<AuditEntry[]> {
  const { results } = await env.FUNNEL_DB.prepare(
    "SELECT seq, actor, via, app, action, target, before, after FROM audit_entries WHERE kind = 'config' ORDER BY seq",
  ).all<AuditEntry & { before: string; after: string }>();
  return results.map((row) => ({ ...row, before: JSON.parse(row.before), after: JSON.parse(row.after) }));
}

const stored = async (key = CONFIG_KEY) => {
  const text = await env.KV.get(key);
  return text === null ? null : JSON.parse(text);
};

beforeAll(async () => {
  await env.KV.put(
    APPS_KEY,
    JSON.stringify({
      apps: [
        { id: 'default', name: 'Notes' },
        { id: 'sketch', name: 'Sketch' },
      ],
    }),
  );
});
afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});
beforeEach(async () => {
  await env.KV.delete(CONFIG_KEY);
  await env.KV.delete('config:sketch');
  await env.FUNNEL_DB.prepare("DELETE FROM audit_entries WHERE kind = 'config'").run();
});

describe('PUT /api/config', () => {
  it('stores an accepted document under the app’s key and appends one entry with before and after', async () => {
    const first = await call('PUT', '/api/config', revisionOf('r1'));
    expect(first.status, await first.clone().text()).toBe(200);
    await expectConforms(first, '/api/config', 'put');
    expect(await first.json()).toMatchObject({ app: 'default', changed: true, config: { revision: 'r1' } });
    expect(await stored()).toMatchObject({ revision: 'r1' });
    const second = await call('PUT', '/api/config', revisionOf('r2'));
    expect(second.status).toBe(200);
    const entries = await configEntries();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      action: 'created',
      target: 'config',
      actor: 'token',
      via: 'token',
      before: null,
    });
    expect(entries[0]?.after).toMatchObject({ revision: 'r1' });
    expect(entries[1]).toMatchObject({ action: 'updated', before: { revision: 'r1' }, after: { revision: 'r2' } });
    // The whole documents, with the schema's defaults filled in: what KV holds.
    expect(entries[1]?.after).toEqual(await stored());
  });

  it('refuses a document the schema refuses, with each problem’s path; nothing stored, no entry', async () => {
    const bad = { ...demo, revision: 'bad', appData: [{ plat: 9 }], colour: 'red' };
    const res = await call('PUT', '/api/config', bad);
    expect(res.status).toBe(400);
    await expectConforms(res, '/api/config', 'put');
    const body = (await res.json()) as { error: string; problems: { path: string; message: string }[] };
    expect(body.error).toBe('not a valid configuration; nothing was written');
    expect(body.problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['$.appData[0].plat', '$.colour']),
    );
    expect(await stored()).toBeNull();
    expect(await configEntries()).toEqual([]);
  });

  it('refuses a body over 256 KiB with 413, said by its length or counted as it streams; nothing stored', async () => {
    const huge = JSON.stringify({ ...revisionOf('huge'), padding: 'x'.repeat(256 * 1024) });
    const res = await call('PUT', '/api/config', huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: `Body larger than ${256 * 1024} bytes` });
    const bytes = new TextEncoder().encode(huge);
    const streamed = await fetchWorker(`${ORIGIN}/api/config`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
          controller.close();
        },
      }),
    });
    expect(streamed.status).toBe(413);
    expect(await stored()).toBeNull();
    expect(await configEntries()).toEqual([]);
  });

  it('refuses text that is not JSON at $, and mainland China without its disclosures, as config:push does', async () => {
    const notJson = await call('PUT', '/api/config', '{"revision":');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { problems: { path: string }[] }).problems[0]?.path).toBe('$');
    const mainland = await call('PUT', '/api/config', { ...revisionOf('cn'), china: { mainland: true } });
    expect(mainland.status).toBe(400);
    const body = (await mainland.json()) as { error: string; problems: { path: string }[] };
    expect(body.error).toBe('serves mainland China without its disclosures; nothing was written');
    expect(body.problems.map((problem) => problem.path)).toContain('$.about.developer');
    expect(await configEntries()).toEqual([]);
  });

  it('in production refuses the demo’s store ids and a placeholder download origin, naming each', async () => {
    const token = 'p'.repeat(40);
    const res = await fetchWorker(
      `${ORIGIN}/api/config`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(revisionOf('prod')),
      },
      { LANDER_ENV: 'production', ADMIN_TOKEN: token },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; problems: { path: string; message: string }[] };
    expect(body.error).toBe('not ready for production; nothing was written');
    expect(body.problems).toContainEqual({
      path: '$.appData[1].app_store_id',
      message: 'is the demo’s (6740858208): production needs the app’s own',
    });
    expect(await configEntries()).toEqual([]);
  });

  it('the same document again changes nothing and appends nothing', async () => {
    expect((await call('PUT', '/api/config', revisionOf('same'))).status).toBe(200);
    const again = await call('PUT', '/api/config', revisionOf('same'));
    expect(await again.json()).toMatchObject({ changed: false });
    expect(await configEntries()).toHaveLength(1);
  });

  it('writes another app’s document under config:<app> from its /@<app> prefix; the default app’s stays', async () => {
    const res = await call('PUT', '/@sketch/api/config', revisionOf('sketch-1'));
    expect(res.status).toBe(200);
    expect(await stored('config:sketch')).toMatchObject({ revision: 'sketch-1' });
    expect(await stored()).toBeNull();
    expect(await configEntries()).toMatchObject([{ app: 'sketch', target: 'config:sketch', action: 'created' }]);
    const read = await call('GET', '/@sketch/api/config');
    await expectConforms(read, '/api/config', 'get');
    expect(await read.json()).toMatchObject({ app: 'sketch', config: { revision: 'sketch-1' } });
    expect(await (await call('GET', '/api/config')).json()).toEqual({ app: 'default', config: null });
  });

  it('when the audit log cannot take the entry: 503, the document before is put back, no entry', async () => {
    expect((await call('PUT', '/api/config', revisionOf('kept'))).status).toBe(200);
    const down = new Proxy(env.FUNNEL_DB, {
      get: (target, name) =>
        name === 'prepare'
          ? () => {
              throw new Error('D1_ERROR: the database is unavailable');
            }
          : Reflect.get(target, name),
    });
    const res = await call('PUT', '/api/config', revisionOf('lost'), { FUNNEL_DB: down });
    expect(res.status).toBe(503);
    await expectConforms(res, '/api/config', 'put');
    expect(await res.json()).toEqual({
      error: 'The audit log is unavailable; the configuration was not changed. Try again',
    });
    expect(await stored()).toMatchObject({ revision: 'kept' });
    expect(await configEntries()).toHaveLength(1);
  });

  it('property: after any run of valid, invalid and repeated documents, one entry per accepted change', async () => {
    const step = fc.oneof(
      fc.constantFrom('a', 'b', 'c').map((revision) => ({ kind: 'valid' as const, revision })),
      fc.constant({ kind: 'invalid' as const, revision: 'x' }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        await env.KV.delete(CONFIG_KEY);
        await env.FUNNEL_DB.prepare("DELETE FROM audit_entries WHERE kind = 'config'").run();
        let current: string | null = null;
        let changes = 0;
        for (const { kind, revision } of steps) {
          const body = kind === 'valid' ? revisionOf(revision) : { ...demo, appData: 'none' };
          const res = await call('PUT', '/api/config', body);
          expect(res.status).toBe(kind === 'valid' ? 200 : 400);
          if (kind === 'valid' && revision !== current) {
            changes += 1;
            current = revision;
          }
        }
        const entries = await configEntries();
        expect(entries).toHaveLength(changes);
        // Each entry's before is the one before it's after: the log replays to what KV holds.
        for (const [at, entry] of entries.entries()) {
          expect(entry.before).toEqual(at === 0 ? null : entries[at - 1]?.after);
        }
        expect(entries.at(-1)?.after ?? null).toEqual(await stored());
      }),
      { numRuns: 15 },
    );
  });
});

describe('who may read and change the configuration', () => {
  it('a viewer reads none (403 config:read); an analyst reads it but may not change it; an editor changes it, named', async () => {
    const { key, claims, bindings } = await accessTeam();
    const dev = { ...bindings, LANDER_ENV: 'development' };
    const as = async (person: string, method: string, body?: unknown) =>
      fetchWorker(
        `${ORIGIN}/api/config`,
        {
          method,
          headers: {
            'content-type': 'application/json',
            'cf-access-jwt-assertion': await key.sign({ ...claims, email: person }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        dev,
      );
    await seedMember('viewer@example.com', 'viewer');
    await seedMember('analyst@example.com', 'analyst');
    await seedMember('editor@example.com', 'editor');
    try {
      const viewer = await as('viewer@example.com', 'GET');
      expect(viewer.status).toBe(403);
      expect(await viewer.json()).toEqual({
        error: 'Forbidden: this needs the scope config:read, which the role viewer does not hold',
      });
      expect((await as('analyst@example.com', 'GET')).status).toBe(200);
      const analyst = await as('analyst@example.com', 'PUT', revisionOf('by-analyst'));
      expect(analyst.status).toBe(403);
      expect(await configEntries()).toEqual([]);
      expect((await as('editor@example.com', 'PUT', revisionOf('by-editor'))).status).toBe(200);
      expect(await configEntries()).toMatchObject([{ actor: 'editor@example.com', via: 'sign-in', action: 'created' }]);
    } finally {
      await clearMembers();
    }
  });
});
