/**
 * The roles table drives the admin API (docs/operators.md#roles), checked with fast-check through the
 * real worker, D1 and the rate-limit objects: for random callers (a member of each role, a stranger,
 * an API key with random scopes) and random operator routes and methods, a call is refused with 403
 * naming the scope exactly when the table (shared/roles.ts) says the caller lacks the scope the
 * route declares for that method; otherwise it is never a 403.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Need, ROLE_SCOPES, ROLES, SCOPES, type Scope, scopeFor } from '../../../shared/roles.ts';
import { type Caller, clearMembers, seedMember, teamWorker } from './team-fixtures.ts';

/** Every operator route with what it declares it needs, and a call of it that touches nothing kept. */
const ROUTES: { method: string; path: string; need: Need; body?: unknown }[] = [
  { method: 'GET', path: '/api/config', need: 'config' },
  // A document the schema refuses: a caller let in gets 400 and nothing is stored.
  { method: 'PUT', path: '/api/config', need: 'config', body: { revision: 1 } },
  { method: 'GET', path: '/api/links', need: 'links' },
  { method: 'HEAD', path: '/api/links', need: 'links' },
  { method: 'GET', path: '/api/links/no-such-link', need: 'links' },
  { method: 'POST', path: '/api/links', need: 'links', body: { channel: 12 } },
  { method: 'PATCH', path: '/api/links/no-such-link', need: 'links', body: { expiresAt: null } },
  { method: 'DELETE', path: '/api/links/no-such-link', need: 'links' },
  { method: 'GET', path: '/api/stats', need: 'stats:read' },
  { method: 'GET', path: '/api/fraud', need: 'fraud:read' },
  { method: 'GET', path: '/api/test-installs', need: 'installs:read' },
  { method: 'GET', path: '/api/installs?app=x&installId=y', need: 'installs:read' },
  { method: 'GET', path: '/api/test-devices', need: 'test-devices' },
  { method: 'POST', path: '/api/test-devices', need: 'test-devices', body: {} },
  { method: 'DELETE', path: '/api/test-devices/999999', need: 'test-devices' },
  { method: 'GET', path: '/api/store-postbacks', need: 'store-postbacks:read' },
  { method: 'GET', path: '/api/webhooks', need: 'webhooks' },
  { method: 'POST', path: '/api/webhooks', need: 'webhooks', body: {} },
  { method: 'GET', path: '/api/webhooks/no-such-endpoint', need: 'webhooks' },
  { method: 'PATCH', path: '/api/webhooks/no-such-endpoint', need: 'webhooks', body: { enabled: true } },
  { method: 'DELETE', path: '/api/webhooks/no-such-endpoint', need: 'webhooks' },
  { method: 'POST', path: '/api/webhooks/no-such-endpoint/rotate', need: 'webhooks' },
  { method: 'POST', path: '/api/webhooks/no-such-endpoint/test', need: 'webhooks' },
  { method: 'GET', path: '/api/webhooks/no-such-endpoint/attempts', need: 'webhooks' },
  { method: 'GET', path: '/api/losses', need: 'losses:read' },
  { method: 'GET', path: '/api/audit', need: 'audit:read' },
  { method: 'GET', path: '/api/audit/export', need: 'audit:read' },
  { method: 'GET', path: '/api/keys', need: 'keys' },
  // A key asked for with the one scope making keys needs, which any caller let in holds.
  { method: 'POST', path: '/api/keys', need: 'keys', body: { name: 'property', scopes: ['keys:write'] } },
  { method: 'DELETE', path: '/api/keys/no-such-key', need: 'keys' },
  { method: 'GET', path: '/api/members', need: 'members' },
  { method: 'DELETE', path: '/api/members/nobody@example.com', need: 'members' },
  { method: 'GET', path: '/api/cohorts', need: 'stats:read' },
  { method: 'GET', path: '/api/rule-sets', need: 'links' },
  // A rule set the schema refuses: a caller let in gets 400 and nothing is kept.
  { method: 'PUT', path: '/api/rule-sets/property', need: 'links', body: { rules: [] } },
  { method: 'DELETE', path: '/api/rule-sets/no-such-set', need: 'links' },
  // A key, though read: it needs the scope that changes webhooks.
  { method: 'GET', path: '/api/webhooks/install-key', need: 'webhooks:write' },
  { method: 'GET', path: '/api/privacy/requests', need: 'privacy' },
  { method: 'GET', path: '/api/privacy/requests/no-such-request', need: 'privacy' },
  // A request the schema refuses: a caller let in gets 400 and nothing is filed.
  { method: 'POST', path: '/api/privacy/requests', need: 'privacy', body: {} },
  { method: 'DELETE', path: '/api/privacy/requests/no-such-request', need: 'privacy' },
  { method: 'GET', path: '/api/conversions/destinations', need: 'conversions' },
  { method: 'GET', path: '/api/conversions/destinations/no-such-destination', need: 'conversions' },
  { method: 'POST', path: '/api/conversions/destinations', need: 'conversions', body: {} },
  { method: 'PATCH', path: '/api/conversions/destinations/no-such-destination', need: 'conversions', body: {} },
  { method: 'DELETE', path: '/api/conversions/destinations/no-such-destination', need: 'conversions' },
  { method: 'GET', path: '/api/conversions/destinations/no-such-destination/attempts', need: 'conversions' },
];

const memberOf = (role: string) => `${role}@property.example`;
const STRANGER = 'stranger@property.example';

let team: Awaited<ReturnType<typeof teamWorker>>;
const keys = new Map<string, string>();

beforeAll(async () => {
  team = await teamWorker();
  await clearMembers();
  for (const role of ROLES) await seedMember(memberOf(role), role);
});

afterAll(() => {
  vi.restoreAllMocks();
});

/** A caller and the scopes the table gives it. */
type Drawn = { caller: Caller; scopes: readonly Scope[]; label: string };

/** An API key with `scopes`, made once per set through the API. */
async function keyWith(scopes: Scope[]): Promise<string> {
  const id = [...scopes].sort().join(',');
  let key = keys.get(id);
  if (!key) {
    key = (await team.makeKey(scopes)).key;
    keys.set(id, key);
  }
  return key;
}

const callers = fc.oneof(
  fc.constantFrom(...ROLES).map((role) => ({ role })),
  fc.constant({ stranger: true as const }),
  fc.subarray([...SCOPES], { minLength: 1 }).map((scopes) => ({ scopes })),
);

async function drawn(
  choice: { role: (typeof ROLES)[number] } | { stranger: true } | { scopes: Scope[] },
): Promise<Drawn> {
  if ('role' in choice)
    return { caller: { person: memberOf(choice.role) }, scopes: ROLE_SCOPES[choice.role], label: choice.role };
  if ('stranger' in choice) return { caller: { person: STRANGER }, scopes: [], label: 'stranger' };
  return {
    caller: { key: await keyWith(choice.scopes) },
    scopes: choice.scopes,
    label: `key ${choice.scopes.join(' ')}`,
  };
}

describe('the roles table', () => {
  it('has a route for every scope but members:owner, which guards the owners themselves', () => {
    const needed = new Set(ROUTES.map((route) => scopeFor(route.need, route.method)));
    expect(SCOPES.filter((scope) => !needed.has(scope))).toEqual(['members:owner']);
  });

  it('decides every call: 403 naming the scope exactly when the caller lacks the route’s scope', async () => {
    let refused = 0;
    let allowed = 0;
    await fc.assert(
      fc.asyncProperty(callers, fc.constantFrom(...ROUTES), async (choice, route) => {
        const { caller, scopes, label } = await drawn(choice);
        const res = await team.call(caller, route.method, route.path, route.body);
        const needed = scopeFor(route.need, route.method);
        const json = res.headers.get('content-type')?.startsWith('application/json');
        const text = json ? await res.text() : '';
        const where = `${label} ${route.method} ${route.path}: ${res.status} ${text}`;
        if (scopes.includes(needed)) {
          allowed += 1;
          expect(res.status, where).not.toBe(403);
          expect(res.status, where).not.toBe(401);
          expect(res.status, where).toBeLessThan(500);
        } else {
          refused += 1;
          expect(res.status, where).toBe(403);
          // A stranger is refused before any scope: it is no member of the app.
          if (route.method !== 'HEAD') expect(text, where).toContain(label === 'stranger' ? 'not a member' : needed);
        }
      }),
      { numRuns: 400 },
    );
    // Both sides of the table were drawn many times.
    expect(refused).toBeGreaterThan(50);
    expect(allowed).toBeGreaterThan(50);
  }, 240_000);
});
