/**
 * The team's admin API (docs/operators.md#api-keys, #members), per app (`c.get('app')`):
 * - `POST /api/keys` makes a key (answered once), `GET /api/keys` lists them without secrets,
 *   `DELETE /api/keys/:id` revokes one; a key gets only scopes its creator holds;
 * - `GET /api/members`, `PUT /api/members/:subject` `{ role }`, `DELETE /api/members/:subject`; a
 *   role is granted, changed or taken only by one who holds all its scopes, and the last owner stays.
 */
import { type Context, Hono } from 'hono';
import { missingScope, ROLE_SCOPES, type Role, type Scope } from '../../shared/roles.ts';
import { KeyRequestSchema, MemberRequestSchema, SUBJECT_PATTERN } from '../../shared/team.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv, Operator } from '../env.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { listKeys } from '../sign-in/api-keys.ts';
import { isPerson, subjectKey } from '../sign-in/members.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { KEY_RATE } from '../sign-in/rate-limit.ts';
import { createKey, keyOf, keyView, revokeKey } from './keys.ts';
import { addMember, changeRole, hasMembers, isLastOwner, listMembers, memberOf, removeMember } from './members.ts';

/** The most bytes a key or member body may have. */
const MAX_BODY = 4096;

/** Who is calling: operatorAuth has always named them before a handler runs. */
const operatorOf = (c: Context<AppEnv>): Operator =>
  c.get('operator') ?? { actor: 'unknown', via: 'unknown', role: null, scopes: [] };

/** The 403 for an act that needs `scope`, which the caller lacks. */
const above = (c: Context<AppEnv>, field: string, scope: Scope) =>
  c.json({ error: `${field}: this needs the scope ${scope}, which you do not hold` }, 403);

export const keysRoute = new Hono<AppEnv>();
keysRoute.use(operatorAuth('keys'));

keysRoute.get('/', async (c) => c.json({ keys: (await listKeys(c.env.FUNNEL_DB, c.get('app'))).map(keyView) }));

keysRoute.post('/', jsonBodyLimit(MAX_BODY), async (c) => {
  const body = await readJson(c, KeyRequestSchema);
  if (body instanceof Response) return body;
  const operator = operatorOf(c);
  const scopes = [...new Set(body.scopes)];
  const missing = missingScope(operator.scopes, scopes);
  if (missing) return above(c, 'scopes', missing);
  const expiresAt = body.expiresAt === undefined ? null : Date.parse(body.expiresAt);
  if (expiresAt !== null && expiresAt <= Date.now()) return c.json({ error: 'expiresAt: must be in the future' }, 400);
  const parts = {
    app: c.get('app'),
    name: body.name.trim(),
    scopes,
    rate: body.rateLimit ?? KEY_RATE,
    expiresAt,
    createdBy: operator.actor,
  };
  const { stored, key } = await createKey(c.env.FUNNEL_DB, parts, committerOf(c));
  return c.json({ ...keyView(stored), key }, 201);
});

keysRoute.delete('/:id{[A-Za-z0-9_-]{1,40}}', async (c) => {
  const key = await keyOf(c.env.FUNNEL_DB, c.get('app'), c.req.param('id'));
  if (!key) return c.json({ error: 'id: no such key' }, 404);
  if (key.revokedAt !== null) return c.json({ error: 'id: this key is already revoked' }, 409);
  if (!(await revokeKey(c.env.FUNNEL_DB, key, committerOf(c)))) {
    return c.json({ error: 'id: this key is already revoked' }, 409);
  }
  return c.body(null, 204);
});

export const membersRoute = new Hono<AppEnv>();
membersRoute.use(operatorAuth('members'));

membersRoute.get('/', async (c) => c.json({ members: await listMembers(c.env.FUNNEL_DB, c.get('app')) }));

/** The member's subject from the path, as kept (lower-cased), or the 400. */
function subjectOf(c: Context<AppEnv>): string | Response {
  const subject = subjectKey(c.req.param('subject') ?? '');
  return SUBJECT_PATTERN.test(subject)
    ? subject
    : c.json({ error: 'subject: must be 1 to 200 characters, without spaces, control or format characters' }, 400);
}

/** The first scope of `roles` the caller lacks: acting on a role needs every scope it holds. */
const missingFor = (operator: Operator, ...roles: Role[]): Scope | undefined =>
  missingScope(operator.scopes, [...new Set(roles.flatMap((role) => ROLE_SCOPES[role]))]);

const lastOwner = (c: Context<AppEnv>, act: string) =>
  c.json({ error: `subject: the app's last owner cannot be ${act}; make another owner first` }, 409);

membersRoute.put('/:subject', jsonBodyLimit(MAX_BODY), async (c) => {
  const subject = subjectOf(c);
  if (subject instanceof Response) return subject;
  const body = await readJson(c, MemberRequestSchema);
  if (body instanceof Response) return body;
  const db = c.env.FUNNEL_DB;
  const app = c.get('app');
  const operator = operatorOf(c);
  const member = await memberOf(db, app, subject);
  const missing = missingFor(operator, body.role, ...(member ? [member.role] : []));
  if (missing) return above(c, 'role', missing);
  if (member?.role === body.role) return c.json(member);
  if (member) {
    if (body.role !== 'owner' && (await isLastOwner(db, app, member))) return lastOwner(c, 'demoted');
    if (!(await changeRole(db, app, member, body.role, committerOf(c)))) return lastOwner(c, 'demoted');
    return c.json(await memberOf(db, app, subject));
  }
  // A person (signed in, or with the provider's JWT) is owner of an app without members until the
  // first member is added: they are kept as its owner then, so adding someone else never locks them out.
  const actor = subjectKey(operator.actor);
  if (isPerson(operator) && actor !== subject && !(await hasMembers(db, app))) {
    await addMember(db, app, actor, 'owner', committerOf(c));
  }
  await addMember(db, app, subject, body.role, committerOf(c));
  return c.json(await memberOf(db, app, subject), 201);
});

membersRoute.delete('/:subject', async (c) => {
  const subject = subjectOf(c);
  if (subject instanceof Response) return subject;
  const db = c.env.FUNNEL_DB;
  const app = c.get('app');
  const member = await memberOf(db, app, subject);
  if (!member) return c.json({ error: 'subject: no such member' }, 404);
  const missing = missingFor(operatorOf(c), member.role);
  if (missing) return above(c, 'subject', missing);
  if (await isLastOwner(db, app, member)) return lastOwner(c, 'removed');
  if (!(await removeMember(db, app, member, committerOf(c)))) return lastOwner(c, 'removed');
  return c.body(null, 204);
});
