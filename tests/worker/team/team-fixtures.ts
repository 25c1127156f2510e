/**
 * The team tests' callers (docs/operators.md#roles): the admin token, people signed in by a
 * Cloudflare Access team of the tests' own (access-team.ts) with a role in `members`, and API keys
 * made through the API. Every call goes through the real worker, D1 and the rate-limit objects.
 */
import { env } from 'cloudflare:workers';
import type { Role, Scope } from '../../../shared/roles.ts';
import { accessTeam } from '../access-team.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

/** The admin token of the tests' production-like worker. */
export const TOKEN = 'team-test-admin-token';

/** Who calls: the token, a signed-in person (by subject), or an API key. */
export type Caller = { token: true } | { person: string } | { key: string };

/** A team of the tests' own, and a call as any caller through it. */
export async function teamWorker() {
  const { key, claims, bindings } = await accessTeam();
  const worker = { ...bindings, ADMIN_TOKEN: TOKEN, ATTRIBUTION_SALT: 'team-test-salt' };
  async function call(caller: Caller, method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if ('token' in caller) headers.authorization = `Bearer ${TOKEN}`;
    if ('key' in caller) headers.authorization = `Bearer ${caller.key}`;
    if ('person' in caller) headers['cf-access-jwt-assertion'] = await key.sign({ ...claims, email: caller.person });
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    return fetchWorker(`${ORIGIN}${path}`, init, worker);
  }
  /** Makes a key with `scopes` as the admin token; answers the key, shown once. */
  async function makeKey(scopes: Scope[], extra: Record<string, unknown> = {}): Promise<{ key: string; id: string }> {
    const res = await call({ token: true }, 'POST', '/api/keys', { name: 'test key', scopes, ...extra });
    if (res.status !== 201) throw new Error(`key not made: ${res.status} ${await res.text()}`);
    return (await res.json()) as { key: string; id: string };
  }
  return { call, makeKey, worker };
}

/** Makes `subject` a member of `app` with `role`, straight in D1. */
export async function seedMember(subject: string, role: Role, app = 'default'): Promise<void> {
  await env.FUNNEL_DB.prepare(
    'INSERT OR REPLACE INTO members (app, subject, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  )
    .bind(app, subject, role, Date.now(), Date.now())
    .run();
}

/** Removes every member of `app`. */
export async function clearMembers(app = 'default'): Promise<void> {
  await env.FUNNEL_DB.prepare('DELETE FROM members WHERE app = ?').bind(app).run();
}
