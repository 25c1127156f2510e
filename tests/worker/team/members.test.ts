/**
 * Members and roles through the real worker and D1 (docs/operators.md#members): an app without
 * members lets anyone signed in act as owner; once it has one only members get in, each with its
 * role's scopes; a role acting above itself is 403 naming the scope; the last owner stays (409);
 * each change is one audit entry naming who made it.
 */
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearMembers, seedMember, teamWorker } from './team-fixtures.ts';

beforeEach(async () => {
  await clearMembers();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const entries = async () =>
  (await env.FUNNEL_DB.prepare("SELECT COUNT(*) AS n FROM audit_entries WHERE kind = 'member'").first<{ n: number }>())
    ?.n ?? 0;

describe('an app without members', () => {
  it('lets anyone signed in act as its owner, as before members existed', async () => {
    const { call } = await teamWorker();
    expect((await call({ person: 'first@example.com' }, 'GET', '/api/members')).status).toBe(200);
  });

  it('keeps the person who adds its first member as its owner, so they are not locked out', async () => {
    const { call } = await teamWorker();
    const added = await call({ person: 'First@Example.com' }, 'PUT', '/api/members/viewer@example.com', {
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    const list = (await (await call({ person: 'first@example.com' }, 'GET', '/api/members')).json()) as {
      members: { subject: string; role: string }[];
    };
    expect(list.members.map(({ subject, role }) => [subject, role])).toEqual([
      ['first@example.com', 'owner'],
      ['viewer@example.com', 'viewer'],
    ]);
  });
});

describe('an app with members', () => {
  it('lets in only its members: a stranger is 403', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    const res = await call({ person: 'stranger@example.com' }, 'GET', '/api/links');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringContaining('not a member') });
    expect((await call({ token: true }, 'GET', '/api/links')).status).toBe(200);
  });

  it('gives each member its role: a viewer reads links but cannot write them (403 names links:write)', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    await seedMember('viewer@example.com', 'viewer');
    expect((await call({ person: 'viewer@example.com' }, 'GET', '/api/links')).status).toBe(200);
    const res = await call({ person: 'viewer@example.com' }, 'POST', '/api/links', { channel: 'x' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringContaining('links:write') });
  });

  it('refuses an admin granting owner, or changing an owner: 403 naming members:owner, nothing stored', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    await seedMember('admin@example.com', 'admin');
    const before = await entries();
    const grant = await call({ person: 'admin@example.com' }, 'PUT', '/api/members/new@example.com', { role: 'owner' });
    expect(grant.status).toBe(403);
    expect(await grant.json()).toEqual({ error: expect.stringContaining('members:owner') });
    const demote = await call({ person: 'admin@example.com' }, 'PUT', '/api/members/owner@example.com', {
      role: 'viewer',
    });
    expect(demote.status).toBe(403);
    expect((await call({ person: 'admin@example.com' }, 'DELETE', '/api/members/owner@example.com')).status).toBe(403);
    expect(await entries()).toBe(before);
    const editor = await call({ person: 'admin@example.com' }, 'PUT', '/api/members/ed@example.com', {
      role: 'editor',
    });
    expect(editor.status).toBe(201);
  });

  it('refuses an editor managing members: 403 naming members:write', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    await seedMember('editor@example.com', 'editor');
    const res = await call({ person: 'editor@example.com' }, 'PUT', '/api/members/x@example.com', { role: 'viewer' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringContaining('members:write') });
  });

  it('keeps the last owner: neither demoted nor removed (409), until another owner exists', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    const before = await entries();
    const demote = await call({ token: true }, 'PUT', '/api/members/owner@example.com', { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(await demote.json()).toEqual({ error: expect.stringContaining('last owner') });
    expect((await call({ token: true }, 'DELETE', '/api/members/owner@example.com')).status).toBe(409);
    expect(await entries()).toBe(before);
    expect((await call({ token: true }, 'PUT', '/api/members/two@example.com', { role: 'owner' })).status).toBe(201);
    expect((await call({ token: true }, 'PUT', '/api/members/owner@example.com', { role: 'admin' })).status).toBe(200);
    expect((await call({ token: true }, 'DELETE', '/api/members/two@example.com')).status).toBe(409);
  });

  it('keeps one owner when two owners demote each other at once', async () => {
    const { call } = await teamWorker();
    await seedMember('a@example.com', 'owner');
    await seedMember('b@example.com', 'owner');
    const answers = await Promise.all([
      call({ token: true }, 'PUT', '/api/members/a@example.com', { role: 'viewer' }),
      call({ token: true }, 'PUT', '/api/members/b@example.com', { role: 'viewer' }),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const owners = await env.FUNNEL_DB.prepare("SELECT COUNT(*) AS n FROM members WHERE role = 'owner'").first<{
      n: number;
    }>();
    expect(owners?.n).toBe(1);
  });

  it('appends one audit entry per change, with before and after, naming who made it', async () => {
    const { call } = await teamWorker();
    await seedMember('owner@example.com', 'owner');
    const owner = { person: 'owner@example.com' };
    expect((await call(owner, 'PUT', '/api/members/m@example.com', { role: 'viewer' })).status).toBe(201);
    expect((await call(owner, 'PUT', '/api/members/m@example.com', { role: 'viewer' })).status).toBe(200);
    expect((await call(owner, 'PUT', '/api/members/m@example.com', { role: 'analyst' })).status).toBe(200);
    expect((await call(owner, 'DELETE', '/api/members/m@example.com')).status).toBe(204);
    expect((await call(owner, 'DELETE', '/api/members/m@example.com')).status).toBe(404);
    const { results } = await env.FUNNEL_DB.prepare(
      "SELECT actor, via, app, action, before, after FROM audit_entries WHERE kind = 'member' AND target = 'm@example.com' ORDER BY seq",
    ).all<Record<string, string>>();
    expect(results.map((row) => [row.actor, row.via, row.app, row.action])).toEqual([
      ['owner@example.com', 'sign-in', 'default', 'created'],
      ['owner@example.com', 'sign-in', 'default', 'updated'],
      ['owner@example.com', 'sign-in', 'default', 'deleted'],
    ]);
    expect(JSON.parse(results[1]?.before ?? '{}')).toMatchObject({ role: 'viewer' });
    expect(JSON.parse(results[1]?.after ?? '{}')).toMatchObject({ role: 'analyst' });
  });

  it('folds only ASCII case: a subject cased otherwise is the member, one Unicode folds to it is not', async () => {
    const { call } = await teamWorker();
    await seedMember('kate@example.com', 'owner');
    expect((await call({ person: 'KATE@Example.COM' }, 'GET', '/api/members')).status).toBe(200);
    // The Kelvin sign (U+212A) lower-cases to k in Unicode: another identity, not Kate.
    const kelvin = await call({ person: '\u212Aate@example.com' }, 'GET', '/api/members');
    expect(kelvin.status).toBe(403);
    expect(await kelvin.json()).toEqual({ error: expect.stringContaining('not a member') });
    // Kept as given beyond ASCII, so such a subject is its own member row.
    const added = await call({ token: true }, 'PUT', `/api/members/${encodeURIComponent('\u212Aate@example.com')}`, {
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ subject: '\u212Aate@example.com', role: 'viewer' });
  });

  it('refuses a subject with a zero-width or bidirectional mark: 400 naming the subject, nothing stored', async () => {
    const { call } = await teamWorker();
    const before = await entries();
    for (const mark of ['\u200B', '\u202E', '\uFEFF']) {
      const res = await call({ token: true }, 'PUT', `/api/members/${encodeURIComponent(`boss${mark}@example.com`)}`, {
        role: 'viewer',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/^subject: .*format characters/) });
    }
    expect(await entries()).toBe(before);
  });

  it('refuses a bad role or subject with a 400 naming the field', async () => {
    const { call } = await teamWorker();
    const role = await call({ token: true }, 'PUT', '/api/members/x@example.com', { role: 'boss' });
    expect(role.status).toBe(400);
    expect(await role.json()).toEqual({ error: expect.stringMatching(/^role: /) });
    const subject = await call({ token: true }, 'PUT', `/api/members/${'a'.repeat(201)}`, { role: 'viewer' });
    expect(subject.status).toBe(400);
    expect(await subject.json()).toEqual({ error: expect.stringMatching(/^subject: /) });
  });
});
