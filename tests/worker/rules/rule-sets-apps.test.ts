/**
 * Rule sets are each app's own (docs/smart-links.md#rule-sets), through the real worker and D1: two
 * apps may keep a set under the same id, each reads, replaces and deletes only its own, and a token
 * naming the id (the decode key is the deployment's, so a token reads on every app's pages) runs the
 * set of the app whose page it is on.
 */
import { env, exports } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import type { LinkRule } from '../../../shared/link-rules.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { campaign } from '../app-calls.ts';
import { ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };

function call(app: string, method: string, path: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${app}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...auth, 'user-agent': UA.iPhoneSafari },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

beforeAll(async () => {
  const apps = ['default', 'alpha', 'beta'].map((id) => ({ id, name: id }));
  await env.KV.put(APPS_KEY, JSON.stringify({ apps }));
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe('a rule set id in two apps', () => {
  it("is two sets: each app reads, replaces and deletes its own, and a token runs the page's app's", async () => {
    const id = `shared-${crypto.randomUUID().slice(0, 8)}`;
    const alphaRules: LinkRule[] = [{ when: 'os == "iOS"', action: 'store' }];
    const betaRules: LinkRule[] = [{ when: 'os == "Android"', action: 'store' }];
    expect((await call('alpha', 'GET', `/api/rule-sets/${id}`)).status).toBe(404);
    expect((await call('alpha', 'PUT', `/api/rule-sets/${id}`, { rules: alphaRules })).status).toBe(201);
    // Beta has none under the id until it writes its own: a create, not alpha's set replaced.
    expect((await call('beta', 'GET', `/api/rule-sets/${id}`)).status).toBe(404);
    expect((await call('beta', 'DELETE', `/api/rule-sets/${id}`)).status).toBe(404);
    expect((await call('beta', 'PUT', `/api/rule-sets/${id}`, { rules: betaRules })).status).toBe(201);
    expect((await (await call('alpha', 'GET', `/api/rule-sets/${id}`)).json<{ rules: unknown }>()).rules).toEqual(
      alphaRules,
    );
    expect((await (await call('beta', 'GET', `/api/rule-sets/${id}`)).json<{ rules: unknown }>()).rules).toEqual(
      betaRules,
    );

    // One token on both apps' pages: alpha's set sends an iPhone to the store, beta's does not.
    const token = campaign({ channel: 'spring', rules: id });
    expect((await call('alpha', 'GET', `/landing?d=${token}`)).status).toBe(302);
    expect((await call('beta', 'GET', `/landing?d=${token}`)).status).toBe(200);

    expect((await call('beta', 'DELETE', `/api/rule-sets/${id}`)).status).toBe(204);
    expect((await call('alpha', 'GET', `/api/rule-sets/${id}`)).status).toBe(200);
    expect((await call('alpha', 'GET', `/landing?d=${token}`)).status).toBe(302);
  });
});
