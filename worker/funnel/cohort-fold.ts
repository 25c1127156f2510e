/**
 * Cohorts (docs/operators.md#cohorts), added up in memory: a batch's installs, opens and app events
 * against what is known of their installs, into the cohort rollups' increments and the installs'
 * new states. No D1 here (cohorts.ts reads and writes), so the lab (`npm run lab:cohorts`) runs the
 * very same fold over a million events.
 *
 * An install's cohort is its install day (the operator's day its install was counted on), its
 * campaign (channel, inviter, link, variant) and its install method. It is retained on day N (0–90)
 * when it sent any app event or open on its install day + N, once however many; its value on day N
 * is what its app events with a currency carried that day. An event is counted on its own day (the
 * message's `on`, the day the app said it happened, else its `day`), however late it reaches the queue. An event whose install is not counted yet is
 * kept pending (its day, and its amounts per currency) until the install arrives.
 */
import { DAY_MS } from '../../shared/time-zone.ts';
import { clamp, MAX_REVENUE_SUM } from './bounds.ts';
import type { FunnelMessage } from './events.ts';

/** The last day after the install a cohort counts: days 0–90. */
export const COHORT_AGES = 90;
/**
 * UTC days an install's cohort row is kept after its install day: its day 90 in any zone, and an event
 * of that day sent as late as the worker takes it (30 days, `MAX_EVENT_AGE_MS` of attribution/contract.ts).
 */
export const COHORT_KEEP_DAYS = 122;
/** UTC days a pending row (events of an install not yet counted) is kept. */
export const PENDING_KEEP_DAYS = 3;
/** The most days and currencies a pending row holds; what is past it is not kept. */
const MAX_PENDING = 16;

/** What a cohort row names: `[day, channel, inviter, link, variant, method]`. */
export type CohortKey = [string, string, string, string, string, string];

/** Per day (`YYYY-MM-DD`): per currency (`''` for an event or open without one), the amount. */
export type Pending = Record<string, Record<string, number>>;

/** One install as cohorts keep it (cohort_installs). */
export interface CohortMember {
  install: string;
  /** Its cohort, null while only its events are known. */
  cohort: CohortKey | null;
  /** `'1'` at N when seen on day N. */
  seen: string;
  pending: Pending | null;
  /** The UTC day it is forgotten after. */
  until: string;
  /** Its version as read; null when it is new. */
  version: number | null;
}

/** One cohort_daily increment: `[...CohortKey, age, metric, n]`. */
export type CohortIncrement = [...CohortKey, number, string, number];

export interface CohortFold {
  /** The installs whose rows changed, in their new state (`version` as read). */
  members: CohortMember[];
  increments: CohortIncrement[];
}

const UNSEEN = '0'.repeat(COHORT_AGES + 1);
const shift = (day: string, days: number): string =>
  new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);
const ageOf = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The install key of an install's message (funnel/count-facts.ts `installMessageId`), else null. */
export const installOfMessage = (message: FunnelMessage): string | null =>
  message.event.type === 'install' && message.id.startsWith('install:') ? message.id.slice('install:'.length) : null;

/** The install method a cohort names: `clipboard`, …, or `unmatched:<reason>` as `/api/stats`'s byMethod. */
function methodOf(message: FunnelMessage): string {
  const { event } = message;
  if (event.type !== 'install' && event.type !== 'open') return '';
  return 'method' in event ? event.method : `unmatched:${event.unmatched}`;
}

/** What an activity carries: its currency (`''` without one) and amount. */
function moneyOf(message: FunnelMessage): [string, number] {
  const { event } = message;
  if (event.type === 'event' && event.currency !== undefined && event.amount !== undefined) {
    return [event.currency, clamp(event.amount, MAX_REVENUE_SUM)];
  }
  return ['', 0];
}

/** Adds up increments by row. */
class Increments {
  readonly #rows = new Map<string, CohortIncrement>();
  add(cohort: CohortKey, age: number, metric: string, n: number): void {
    const id = JSON.stringify([...cohort, age, metric]);
    const row = this.#rows.get(id);
    if (row) row[8] = clamp(row[8] + n, MAX_REVENUE_SUM);
    else this.#rows.set(id, [...cohort, age, metric, n]);
  }
  get rows(): CohortIncrement[] {
    return [...this.#rows.values()];
  }
}

/** `member` seen on `day` with `currency`/`amount`: its retention counted once a day, its value each time. */
function activity(member: CohortMember, day: string, currency: string, amount: number, out: Increments): void {
  const cohort = member.cohort;
  if (cohort === null) {
    const pending = member.pending ?? {};
    const ofDay = pending[day] ?? {};
    const entries = Object.keys(pending).length + Object.keys(ofDay).length;
    if (!(currency in ofDay) && entries >= MAX_PENDING) return;
    ofDay[currency] = clamp((ofDay[currency] ?? 0) + amount, MAX_REVENUE_SUM);
    pending[day] = ofDay;
    member.pending = pending;
    return;
  }
  const age = ageOf(cohort[0], day);
  if (!(age >= 0 && age <= COHORT_AGES)) return;
  if (member.seen[age] !== '1') {
    member.seen = `${member.seen.slice(0, age)}1${member.seen.slice(age + 1)}`;
    out.add(cohort, age, 'retained', 1);
  }
  if (currency !== '' && amount !== 0) out.add(cohort, age, `value:${currency}`, amount);
}

/** `member` given its cohort by its install's message, its pending events folded in. */
function joined(member: CohortMember, message: FunnelMessage, out: Increments): void {
  const { channel, inviter, link, variant } = message.dims;
  member.cohort = [message.day, channel, inviter, link, variant ?? '', methodOf(message)];
  member.until = shift(message.day, COHORT_KEEP_DAYS);
  out.add(member.cohort, 0, 'installs', 1);
  const pending = member.pending ?? {};
  member.pending = null;
  for (const [day, amounts] of Object.entries(pending)) {
    for (const [currency, amount] of Object.entries(amounts)) activity(member, day, currency, amount, out);
  }
}

/**
 * Folds `messages` (counted by the funnel, each id once) into `known` (the installs' rows as read,
 * by install key), on UTC day `today`. Installs first, so an event in the same batch finds its cohort.
 */
export function foldCohorts(
  messages: readonly FunnelMessage[],
  known: ReadonlyMap<string, CohortMember>,
  today: string,
): CohortFold {
  const touched = new Map<string, CohortMember>();
  const out = new Increments();
  const memberOf = (install: string): CohortMember => {
    const member = touched.get(install) ??
      structuredClone(known.get(install)) ?? {
        install,
        cohort: null,
        seen: UNSEEN,
        pending: null,
        until: shift(today, PENDING_KEEP_DAYS),
        version: null,
      };
    touched.set(install, member);
    return member;
  };
  for (const message of messages) {
    const install = installOfMessage(message);
    if (install === null) continue;
    const member = memberOf(install);
    if (member.cohort === null) joined(member, message, out);
  }
  for (const message of messages) {
    if (!message.install || (message.event.type !== 'event' && message.event.type !== 'open')) continue;
    const [currency, amount] = moneyOf(message);
    activity(memberOf(message.install), message.on ?? message.day, currency, amount, out);
  }
  return { members: [...touched.values()], increments: out.rows };
}

/** Whether the batch has anything cohorts count. */
export const countsCohorts = (messages: readonly FunnelMessage[]): boolean =>
  messages.some((message) => installOfMessage(message) !== null || message.install !== undefined);

/** The install keys a batch names, to read their rows. */
export function installsOf(messages: readonly FunnelMessage[]): string[] {
  const keys = new Set<string>();
  for (const message of messages) {
    const key = installOfMessage(message) ?? message.install;
    if (key) keys.add(key);
  }
  return [...keys];
}
