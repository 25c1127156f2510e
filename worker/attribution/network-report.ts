/**
 * What a network bucket tells about a probabilistic match (docs/attribution.md, "Why an answer"):
 * how many taps it keeps, which look like the install's device, how many people they are, how
 * recent, and by which fact the others differ. Counts and minutes only, never a tap's own data.
 */
import type { NetworkFacts, TupleField } from '../../shared/install-explanation.ts';
import { type DeviceTuple, firstDifference } from './match-rules.ts';

const MINUTE = 60_000;

/** What the report reads of a bucket's click (click-bucket.ts): its tuple, time and who made it. */
export interface ReportedClick extends DeviceTuple {
  clickId: string;
  at: number;
  visitor: string | null;
}

export interface ReportInput {
  outcome: 'matched' | 'ambiguous' | 'none' | 'expired';
  tuple: DeviceTuple;
  now: number;
  windowMs: number;
  /** The kept taps that share the install's OS family, time zone and language. */
  alike: readonly ReportedClick[];
  /** How many other kept taps there are, by the first of OS, time zone and language that differs. */
  others: readonly { field: TupleField; count: number }[];
}

/** The report of one match on a bucket's rows. */
export function networkReport({ outcome, tuple, now, windowMs, alike, others }: ReportInput): NetworkFacts {
  const differ: Partial<Record<TupleField, number>> = {};
  const count = (field: TupleField, n: number) => {
    differ[field] = (differ[field] ?? 0) + n;
  };
  for (const { field, count: n } of others) count(field, n);
  const lookAlikes: ReportedClick[] = [];
  for (const click of alike) {
    const field = firstDifference(click, tuple);
    if (field) count(field, 1);
    else lookAlikes.push(click);
  }
  const live = lookAlikes.filter((click) => click.at >= now - windowMs);
  const expired = lookAlikes.length - live.length;
  const times = live.map((click) => click.at);
  const newest = times.length > 0 ? Math.max(...times) : Math.max(-Infinity, ...lookAlikes.map((click) => click.at));
  return {
    outcome,
    windowMinutes: Math.round(windowMs / MINUTE),
    taps: alike.length + others.reduce((sum, other) => sum + other.count, 0),
    candidates: live.length,
    people: new Set(live.map((click) => click.visitor ?? click.clickId)).size,
    // "Within N minutes": whole minutes, at least 1 for two taps seconds apart.
    spanMinutes: times.length > 1 ? Math.max(1, Math.round((Math.max(...times) - Math.min(...times)) / MINUTE)) : 0,
    ageMinutes: Number.isFinite(newest) ? Math.round((now - newest) / MINUTE) : null,
    expired,
    differ,
  };
}
