/**
 * The rule sets API (docs/smart-links.md#rule-sets), per app: `GET /api/rule-sets` lists them, `GET
 * /api/rule-sets/<id>` answers one, `PUT /api/rule-sets/<id>` creates or replaces it (201 or 200),
 * `DELETE /api/rule-sets/<id>` removes it (204). Reads need `links:read`, writes `links:write`; each
 * write is kept in the audit log (commit-change.ts).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { RULE_SET_ID } from '../../shared/link-rules.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import {
  deleteRuleSet,
  listRuleSets,
  putRuleSet,
  type RuleSet,
  RuleSetBodySchema,
  type RuleSetView,
  storedRuleSet,
} from './rule-sets.ts';

/** The most bytes a rule set request may have: room for 100 rules, as a link's. */
const MAX_BODY = 65_536;

/** A rule set as the API shows it. */
const setView = (set: RuleSet): RuleSetView => ({
  id: set.id,
  rules: set.rules,
  createdAt: new Date(set.createdAt).toISOString(),
  updatedAt: new Date(set.updatedAt).toISOString(),
});

/** The refusal of an id that is not one, naming the field; null for a well-formed id. */
function badId(c: Context<AppEnv>, id: string): Response | null {
  return RULE_SET_ID.test(id) ? null : c.json({ error: 'id: 1 to 32 of a-z, 0-9, _ and -' }, 400);
}

export const ruleSetsRoute = new Hono<AppEnv>();

ruleSetsRoute.use(operatorAuth('links'));

ruleSetsRoute.get('/', async (c) => c.json({ ruleSets: (await listRuleSets(c.env, c.get('app'))).map(setView) }));

ruleSetsRoute.get('/:id', async (c) => {
  const id = c.req.param('id');
  const refused = badId(c, id);
  if (refused) return refused;
  const set = await storedRuleSet(c.env, c.get('app'), id);
  return set ? c.json(setView(set)) : c.json({ error: 'id: no such rule set' }, 404);
});

ruleSetsRoute.put('/:id', jsonBodyLimit(MAX_BODY), async (c) => {
  const id = c.req.param('id');
  const refused = badId(c, id);
  if (refused) return refused;
  const body = await readJson(c, RuleSetBodySchema);
  if (body instanceof Response) return body;
  const result = await putRuleSet(c.env, c.get('app'), id, body.rules, committerOf(c), {
    allowedHosts: c.get('config').config.links.allowed_hosts,
  });
  if (!result.ok) return c.json({ error: result.error }, 400);
  return c.json(setView(result.set), result.created ? 201 : 200);
});

ruleSetsRoute.delete('/:id', async (c) => {
  const id = c.req.param('id');
  const refused = badId(c, id);
  if (refused) return refused;
  const set = await storedRuleSet(c.env, c.get('app'), id);
  if (!set) return c.json({ error: 'id: no such rule set' }, 404);
  await deleteRuleSet(c.env, c.get('app'), set, committerOf(c));
  return c.body(null, 204);
});
