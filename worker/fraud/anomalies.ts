/**
 * Anomalies per inviter and channel (docs/fraud.md, "Anomalies"): computed on read from the fraud
 * tables' daily installs, so the same data always gives the same answer. A day of a group
 * `(channel, inviter)` with at least `min_installs` installs is an anomaly when
 * - `spike`: its installs exceed `spike_factor` × the mean of its previous `history_days` days
 *   (quiet days count as 0; a mean below 1 counts as 1);
 * - `too_fast_share`: its share of `too_fast` installs reaches `too_fast_share`;
 * - `network_share`: its share of installs from its busiest network reaches `network_share`.
 */
import type { FraudConfig } from '../../shared/config/schema.ts';
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';

export const ANOMALY_RULES = ['spike', 'too_fast_share', 'network_share'] as const;
export type AnomalyRule = (typeof ANOMALY_RULES)[number];

/** One group's day flagged by an anomaly rule, with the numbers that made it one. */
export interface Anomaly {
  day: string;
  channel: string;
  inviter: string;
  rule: AnomalyRule;
  installs: number;
  /** The day's figure: installs, or a share 0–1. */
  observed: number;
  /** What it was held against: the spike's limit in installs, or the share threshold. */
  threshold: number;
  reason: string;
}

/** One group's day as the fraud tables count it. */
export interface GroupDay {
  day: string;
  channel: string;
  inviter: string;
  installs: number;
  tooFast: number;
  /** Installs from the group's busiest network that day. */
  topNetwork: number;
}

const shift = (day: string, days: number): string => utcDay(Date.parse(day) + days * DAY_MS);
const percent = (share: number): string => `${Math.round(share * 100)} %`;

const DAYS = `SELECT day, channel, inviter, COUNT(*) AS installs,
  SUM(EXISTS (SELECT 1 FROM fraud_flags WHERE fraud_flags.app = fraud_installs.app AND install = id AND rule = 'too_fast')) AS tooFast
  FROM fraud_installs WHERE app = ?3 AND day BETWEEN ?1 AND ?2 AND (channel != '' OR inviter != '') GROUP BY day, channel, inviter`;
const NETWORKS = `SELECT day, channel, inviter, MAX(n) AS topNetwork FROM (
  SELECT day, channel, inviter, COUNT(*) AS n FROM fraud_installs
  WHERE app = ?3 AND day BETWEEN ?1 AND ?2 AND network != '' AND (channel != '' OR inviter != '') GROUP BY day, channel, inviter, network
) GROUP BY day, channel, inviter`;

/** Each group's days from `from` to `to`, from D1. */
export async function groupDays(db: D1Database, app: string, from: string, to: string): Promise<GroupDay[]> {
  type Row = {
    day: string;
    channel: string;
    inviter: string;
    installs?: number;
    tooFast?: number;
    topNetwork?: number;
  };
  const [days, networks] = await db.batch<Row>([
    db.prepare(DAYS).bind(from, to, app),
    db.prepare(NETWORKS).bind(from, to, app),
  ]);
  const id = (row: Row) => JSON.stringify([row.day, row.channel, row.inviter]);
  const top = new Map((networks?.results ?? []).map((row) => [id(row), row.topNetwork ?? 0]));
  return (days?.results ?? []).map((row) => ({
    day: row.day,
    channel: row.channel,
    inviter: row.inviter,
    installs: row.installs ?? 0,
    tooFast: row.tooFast ?? 0,
    topNetwork: top.get(id(row)) ?? 0,
  }));
}

/** The anomalies of the days `from`…`to` among `days` (which also hold the history before `from`). */
export function findAnomalies(days: readonly GroupDay[], from: string, to: string, config: FraudConfig): Anomaly[] {
  const { min_installs, history_days, spike_factor, too_fast_share, network_share } = config.anomaly;
  const byGroupDay = new Map(days.map((day) => [JSON.stringify([day.channel, day.inviter, day.day]), day.installs]));
  const found: Anomaly[] = [];
  for (const day of days) {
    if (day.day < from || day.day > to || day.installs < min_installs) continue;
    const group = { day: day.day, channel: day.channel, inviter: day.inviter, installs: day.installs };
    let history = 0;
    for (let back = 1; back <= history_days; back += 1)
      history += byGroupDay.get(JSON.stringify([day.channel, day.inviter, shift(day.day, -back)])) ?? 0;
    const limit = spike_factor * Math.max(history / history_days, 1);
    if (day.installs > limit) {
      const reason = `${day.installs} installs, above ${spike_factor} × the ${history_days}-day mean (${limit.toFixed(1)})`;
      found.push({ ...group, rule: 'spike', observed: day.installs, threshold: limit, reason });
    }
    const fast = day.tooFast / day.installs;
    if (fast >= too_fast_share) {
      const reason = `${percent(fast)} of installs too fast (threshold ${percent(too_fast_share)})`;
      found.push({ ...group, rule: 'too_fast_share', observed: fast, threshold: too_fast_share, reason });
    }
    const network = day.topNetwork / day.installs;
    if (network >= network_share) {
      const reason = `${percent(network)} of installs from one network (threshold ${percent(network_share)})`;
      found.push({ ...group, rule: 'network_share', observed: network, threshold: network_share, reason });
    }
  }
  return found.sort(
    (a, b) =>
      (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) ||
      (a.inviter < b.inviter ? -1 : a.inviter > b.inviter ? 1 : 0) ||
      (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) ||
      ANOMALY_RULES.indexOf(a.rule) - ANOMALY_RULES.indexOf(b.rule),
  );
}

/** The anomalies of app `app`'s `from`…`to` in `db`. */
export async function readAnomalies(
  db: D1Database,
  app: string,
  from: string,
  to: string,
  config: FraudConfig,
): Promise<Anomaly[]> {
  const days = await groupDays(db, app, shift(from, -config.anomaly.history_days), to);
  return findAnomalies(days, from, to, config);
}
