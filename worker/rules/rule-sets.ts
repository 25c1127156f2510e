/**
 * Named rule sets (docs/smart-links.md#rule-sets): ordered rules an app keeps in D1 under an id, for
 * campaign tokens. A token is encrypted and printed in URLs, so it never carries rules: it names a
 * set in its signed `rules` field, and `/landing` and `/i/<carrier>` read the set and run it as a
 * short link runs its own. A set is compiled when written (a rule that does not compile, or a URL off
 * the app's allow list, is refused with its place) and each change is committed with its audit entry.
 */
import * as v from 'valibot';
import { type LinkRule, RULE_SET_ID, RulesSchema } from '../../shared/link-rules.ts';
import type { CommitChange } from '../facts.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LINK_BUDGET_MS } from '../reliability/budget.ts';
import { compileRules } from './compile.ts';
import { storedRules } from './stored-rules.ts';

/** The body of `PUT /api/rule-sets/<id>`: the set's rules, in order (at least one). */
export const RuleSetBodySchema = v.strictObject({
  rules: v.pipe(RulesSchema, v.minLength(1, 'rules: at least one rule; DELETE removes a set')),
});

/** A rule set as the API answers it (worker/rules/routes.ts, the OpenAPI document). */
export const RuleSetSchema = v.object({
  id: v.pipe(v.string(), v.regex(RULE_SET_ID)),
  rules: RulesSchema,
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type RuleSetView = v.InferOutput<typeof RuleSetSchema>;

/** The answer of `GET /api/rule-sets`. */
export const RuleSetsSchema = v.object({ ruleSets: v.array(RuleSetSchema) });

/** A stored rule set. */
export interface RuleSet {
  id: string;
  rules: LinkRule[];
  createdAt: number;
  updatedAt: number;
}

interface RuleSetRow {
  id: string;
  rules: string;
  created_at: number;
  updated_at: number;
}

const setOf = (row: RuleSetRow): RuleSet => ({
  id: row.id,
  rules: JSON.parse(row.rules) as LinkRule[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The app's rule set `id`, or null when there is none. */
export async function storedRuleSet(env: Env, app: string, id: string): Promise<RuleSet | null> {
  if (!RULE_SET_ID.test(id)) return null;
  const row = await env.FUNNEL_DB.prepare('SELECT * FROM rule_sets WHERE app = ?1 AND id = ?2')
    .bind(app, id)
    .first<RuleSetRow>();
  return row ? setOf(row) : null;
}

/** The app's rule sets, by id. */
export async function listRuleSets(env: Env, app: string, limit = 500): Promise<RuleSet[]> {
  const { results } = await env.FUNNEL_DB.prepare('SELECT * FROM rule_sets WHERE app = ?1 ORDER BY id LIMIT ?2')
    .bind(app, limit)
    .all<RuleSetRow>();
  return results.map(setOf);
}

/**
 * The rules of the set a page's token names, for running: null when there is none (deleted since the
 * token was minted: the page is served) or D1 did not answer within the page's budget (logged).
 * Never throws: a page asks for it.
 */
export async function ruleSetRules(env: Env, app: string, id: string): Promise<readonly LinkRule[] | null> {
  if (!RULE_SET_ID.test(id)) return null;
  try {
    const read = env.FUNNEL_DB.prepare('SELECT rules FROM rule_sets WHERE app = ?1 AND id = ?2')
      .bind(app, id)
      .first<{ rules: string }>();
    const row = await withinBudget(read, LINK_BUDGET_MS);
    return row ? storedRules(row.rules) : null;
  } catch (error) {
    console.error('Rule set not read', error instanceof Error ? error.message : String(error));
    return null;
  }
}

/**
 * Stores `rules` as the app's set `id` (created, or replaced whole), committed by `commit` with its
 * audit entry; rules that do not compile against the app's `allowedHosts` are refused, each with its place.
 */
export async function putRuleSet(
  env: Env,
  app: string,
  id: string,
  rules: LinkRule[],
  commit: CommitChange,
  { allowedHosts = [] as readonly string[], now = Date.now() } = {},
): Promise<{ ok: true; set: RuleSet; created: boolean } | { ok: false; error: string }> {
  const compiled = compileRules(rules, allowedHosts);
  if (!compiled.ok) return { ok: false, error: compiled.errors.join('; ') };
  const before = await storedRuleSet(env, app, id);
  const set: RuleSet = { id, rules, createdAt: before?.createdAt ?? now, updatedAt: now };
  const upsert = env.FUNNEL_DB.prepare(
    'INSERT INTO rule_sets (app, id, rules, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4) ' +
      'ON CONFLICT (app, id) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at',
  ).bind(app, id, JSON.stringify(rules), now);
  await commit([upsert], { kind: 'rule-set', action: before ? 'updated' : 'created', target: id, before, after: set });
  return { ok: true, set, created: before === null };
}

/** Removes the app's set `set`, committed with its audit entry: a token naming it then serves its page. */
export async function deleteRuleSet(env: Env, app: string, set: RuleSet, commit: CommitChange): Promise<void> {
  const remove = env.FUNNEL_DB.prepare('DELETE FROM rule_sets WHERE app = ?1 AND id = ?2').bind(app, set.id);
  await commit([remove], { kind: 'rule-set', action: 'deleted', target: set.id, before: set, after: null });
}
