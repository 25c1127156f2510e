/**
 * The fraud report (docs/fraud.md) for a range, optionally one inviter or channel: per inviter and
 * channel, installs and flags by rule; the anomalies; the flagged installs with their reasons, the
 * newest first (at most `MAX_INSTALLS`), for the console's drill-down.
 */
import * as v from 'valibot';
import type { FraudConfig } from '../../shared/config/schema.ts';
import type { FlaggedInstall, FraudGroup, FraudReport } from '../../shared/fraud-contract.ts';
import { parseStatsQuery } from '../funnel/stats-query.ts';
import { readAnomalies } from './anomalies.ts';

/** The most flagged installs one report lists. */
export const MAX_INSTALLS = 200;

const Filter = v.optional(v.pipe(v.string(), v.maxLength(128, 'filters are at most 128 characters')));
/** `GET /api/fraud`'s query: the stats query's range (`from`, `to`), and an inviter or a channel. */
export const FraudQuerySchema = v.object({
  from: v.optional(v.string()),
  to: v.optional(v.string()),
  channel: Filter,
  inviter: Filter,
});

export interface FraudQuery {
  from: string;
  to: string;
  channel?: string | undefined;
  inviter?: string | undefined;
}

/** The query of `params`, or the reason it is refused (the range is checked as the stats API's). */
export function parseFraudQuery(params: Record<string, string>, now = Date.now()): FraudQuery | { error: string } {
  const parsed = v.safeParse(FraudQuerySchema, params);
  if (!parsed.success) return { error: parsed.issues.map((issue) => issue.message).join('; ') };
  const { from, to, channel, inviter } = parsed.output;
  const range = parseStatsQuery({ ...(from ? { from } : {}), ...(to ? { to } : {}) }, now);
  if ('error' in range) return range;
  return { from: range.from, to: range.to, channel, inviter };
}

const FILTER =
  'fraud_installs.app = ?5 AND day BETWEEN ?1 AND ?2 AND (?3 IS NULL OR channel = ?3) AND (?4 IS NULL OR inviter = ?4)';
const GROUPS = `SELECT channel, inviter, COUNT(*) AS installs,
  SUM(EXISTS (SELECT 1 FROM fraud_flags WHERE fraud_flags.app = fraud_installs.app AND install = id)) AS flagged FROM fraud_installs
  WHERE ${FILTER} GROUP BY channel, inviter ORDER BY installs DESC, inviter, channel LIMIT 500`;
const RULES = `SELECT channel, inviter, rule, COUNT(*) AS count FROM fraud_installs JOIN fraud_flags
  ON fraud_flags.app = fraud_installs.app AND install = id WHERE ${FILTER} GROUP BY channel, inviter, rule`;
const INSTALLS = `SELECT id, fraud_installs.at AS at, channel, inviter, method,
  json_group_array(json_object('rule', rule, 'reason', reason)) AS flags
  FROM fraud_installs JOIN fraud_flags ON fraud_flags.app = fraud_installs.app AND install = id WHERE ${FILTER}
  GROUP BY id ORDER BY fraud_installs.at DESC, id LIMIT ${MAX_INSTALLS}`;

type Row = Record<string, string | number>;

/** Reads the report of `query` from `db` under the configuration's thresholds. */
export async function readFraudReport(
  db: D1Database,
  app: string,
  query: FraudQuery,
  config: FraudConfig,
): Promise<FraudReport> {
  const bind = [query.from, query.to, query.channel ?? null, query.inviter ?? null, app];
  const [groups, rules, installs] = await db.batch<Row>([
    db.prepare(GROUPS).bind(...bind),
    db.prepare(RULES).bind(...bind),
    db.prepare(INSTALLS).bind(...bind),
  ]);
  const byGroup = new Map<string, FraudGroup>();
  for (const row of groups?.results ?? []) {
    const group: FraudGroup = {
      channel: String(row.channel),
      inviter: String(row.inviter),
      installs: Number(row.installs),
      flagged: Number(row.flagged),
      byRule: {},
    };
    byGroup.set(JSON.stringify([group.channel, group.inviter]), group);
  }
  for (const row of rules?.results ?? []) {
    const group = byGroup.get(JSON.stringify([String(row.channel), String(row.inviter)]));
    if (group) group.byRule[String(row.rule)] = Number(row.count);
  }
  const flagged = (installs?.results ?? []).map(
    (row): FlaggedInstall => ({
      install: String(row.id).slice(0, 12),
      at: new Date(Number(row.at)).toISOString(),
      channel: String(row.channel),
      inviter: String(row.inviter),
      method: String(row.method),
      flags: (JSON.parse(String(row.flags)) as FlaggedInstall['flags']).sort((a, b) => (a.rule < b.rule ? -1 : 1)),
    }),
  );
  const anomalies = (await readAnomalies(db, app, query.from, query.to, config)).filter(
    (anomaly) =>
      (query.channel === undefined || anomaly.channel === query.channel) &&
      (query.inviter === undefined || anomaly.inviter === query.inviter),
  );
  return {
    from: query.from,
    to: query.to,
    excluded: [...config.exclude],
    groups: [...byGroup.values()],
    anomalies,
    installs: flagged,
  };
}
