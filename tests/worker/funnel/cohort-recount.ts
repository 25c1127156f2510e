/**
 * The brute-force recount of cohorts (docs/operators.md#cohorts) the property test and the lab hold
 * the rollups to: every install and event kept, then counted the slow, obvious way.
 */
import type { CohortRow } from '../../../shared/cohorts.ts';

export interface CohortInstall {
  key: string;
  day: string;
  channel: string;
  inviter: string;
  method: string;
}

export interface CohortEvent {
  id: string;
  install: string;
  day: string;
  /** `''` without one. */
  currency: string;
  amount: number;
}

const DAY_MS = 86_400_000;
const between = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The cohort rows by channel, ordered as /api/cohorts orders them, of `installs` and `events` (each id once). */
export function recount(
  installs: readonly CohortInstall[],
  events: readonly CohortEvent[],
  today: string,
  ages: number,
): CohortRow[] {
  const byKey = new Map(installs.map((install) => [install.key, install]));
  const unique = new Map(events.map((event) => [event.id, event]));
  const rows = new Map<string, { row: CohortRow; seen: Set<string>[]; money: Record<string, number[]> }>();
  const entryOf = (install: CohortInstall) => {
    const id = `${install.day} ${install.channel}`;
    const entry = rows.get(id) ?? {
      row: { day: install.day, key: install.channel, installs: 0, retained: [], value: {} },
      seen: Array.from({ length: ages + 1 }, () => new Set<string>()),
      money: {},
    };
    rows.set(id, entry);
    return entry;
  };
  for (const install of byKey.values()) entryOf(install).row.installs += 1;
  for (const event of unique.values()) {
    const install = byKey.get(event.install);
    if (!install) continue;
    const age = between(install.day, event.day);
    if (age < 0 || age > ages) continue;
    const entry = entryOf(install);
    entry.seen[age]?.add(install.key);
    if (event.currency === '' || event.amount === 0) continue;
    const amounts = entry.money[event.currency] ?? new Array<number>(ages + 1).fill(0);
    amounts[age] = (amounts[age] ?? 0) + event.amount;
    entry.money[event.currency] = amounts;
  }
  const out = [...rows.values()].map(({ row, seen, money }) => {
    const reached = Math.min(ages, between(row.day, today));
    const open = <T>(values: T[]): (T | null)[] => values.map((value, age) => (age <= reached ? value : null));
    const value: Record<string, (number | null)[]> = {};
    for (const currency of Object.keys(money).sort()) {
      let sum = 0;
      value[currency] = open((money[currency] ?? []).map((amount) => (sum += amount)));
    }
    return { ...row, retained: open(seen.map((set) => set.size)), value };
  });
  return out.sort((a, b) =>
    a.day < b.day ? -1 : a.day > b.day ? 1 : b.installs - a.installs || (a.key < b.key ? -1 : 1),
  );
}
