/**
 * The funnel's `flagged` figures (docs/fraud.md): installs the fraud rules flagged, by rule, for the
 * same range, filters and grouping as the stats query, read from the fraud tables. An install
 * flagged by two rules counts once in `flagged.installs` and once under each rule; the installs
 * flagged by a rule the configuration excludes (`fraud.exclude`) leave `countedInstalls`, never
 * `installs`, so the raw figure stays visible.
 */

import type { StatsRow } from '../../shared/admin-contract.ts';
import type { FraudRule } from '../../shared/config/schema.ts';

/** One group's flagged installs, by the set of rules on them. */
export interface FlaggedCount {
  key: string;
  /** The rules on these installs, sorted, comma-separated. */
  rules: string;
  count: number;
}

/** The query of the flagged installs per group and rule set; `where` is the stats query's own filter, its `?1` the app. */
export function flaggedQuery(db: D1Database, column: string, where: { sql: string; params: string[] }) {
  return db
    .prepare(
      `SELECT ${column} AS key, rules, COUNT(*) AS count FROM fraud_installs JOIN ` +
        `(SELECT install, group_concat(rule, ',') AS rules FROM (SELECT install, rule FROM fraud_flags WHERE app = ?1 ORDER BY install, rule) GROUP BY install) ` +
        `ON install = id WHERE ${where.sql} GROUP BY ${column}, rules`,
    )
    .bind(...where.params);
}

/** Adds one group's flagged installs to `row`; those with an excluded rule leave its counted installs. */
export function addFlagged(row: StatsRow, flagged: FlaggedCount, exclude: readonly FraudRule[]): void {
  const rules = flagged.rules.split(',').filter(Boolean);
  row.flagged.installs += flagged.count;
  for (const rule of rules) row.flagged.byRule[rule] = (row.flagged.byRule[rule] ?? 0) + flagged.count;
  if (rules.some((rule) => (exclude as readonly string[]).includes(rule))) row.flagged.excluded += flagged.count;
}

/** `installs` less the excluded flagged ones, never below 0 (a flag's row may land before its count). */
export const countedInstalls = (row: StatsRow): number => Math.max(0, row.installs - row.flagged.excluded);
