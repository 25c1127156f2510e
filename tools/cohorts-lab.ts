/**
 * `npm run lab:cohorts` (docs/operators.md#cohorts): a million synthetic app events and opens of
 * installs over four months — late by days, retried with their ids, some before their install is
 * counted, of eight channels and three install methods — folded in queue batches of 100 by the
 * consumer's own fold (worker/funnel/cohort-fold.ts) over an in-memory store of the installs' rows,
 * read back by `/api/cohorts`' own read (`readCohorts`, over the rollup's cells), and compared cell
 * by cell with a brute-force recount of the events. Prints the cells compared and the mismatches.
 *
 *   npm run lab:cohorts [-- --events 1000000 --seed 7]
 */
import { parseArgs } from 'node:util';
import { addDays } from '../shared/day-range.ts';
import { type CohortEvent, type CohortInstall, recount } from '../tests/fixtures/cohort-recount.ts';
import { type CohortMember, foldCohorts } from '../worker/funnel/cohort-fold.ts';
import { readCohorts } from '../worker/funnel/cohort-query.ts';
import { type FunnelMessage, NO_DIMENSIONS } from '../worker/funnel/events.ts';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '7' } },
});
const EVENTS = Number(values.events);
const TODAY = '2026-11-29';
const FIRST = addDays(TODAY, -120);
const BATCH = 100;
const METHODS = ['clipboard', 'referrer', 'unmatched:none'] as const;

let state = Number(values.seed) >>> 0;
/** A small LCG: the run replays from its seed. */
const random = (): number => {
  state = (state * 1_664_525 + 1_013_904_223) >>> 0;
  return state / 2 ** 32;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function installMessage(install: CohortInstall): FunnelMessage {
  const event: FunnelMessage['event'] =
    install.method === 'unmatched:none'
      ? { type: 'install', unmatched: 'none' }
      : { type: 'install', method: install.method as 'clipboard' | 'referrer' };
  const dims = { ...NO_DIMENSIONS, channel: install.channel, inviter: install.inviter };
  return { v: 1, id: `install:${install.key}`, day: install.day, event, dims };
}

/** The installs, their events, and the queue's messages in the order they arrive. */
function traffic() {
  const installs: CohortInstall[] = Array.from({ length: Math.ceil(EVENTS / 10) }, (_, at) => ({
    key: `i${at}`,
    day: addDays(FIRST, Math.floor(random() * 120)),
    channel: `channel-${Math.floor(random() ** 2 * 8)}`,
    inviter: random() < 0.3 ? 'Ann' : '',
    method: pick(METHODS),
  }));
  const events: CohortEvent[] = [];
  const timeline: { at: number; message: FunnelMessage }[] = installs.map((install) => ({
    at: Date.parse(install.day) + random() * 86_400_000,
    message: installMessage(install),
  }));
  for (let at = 0; at < EVENTS; at += 1) {
    const install = pick(installs);
    // Mostly the first days; some late past day 90; one in fifty of an install never counted.
    const age = random() < 0.7 ? Math.floor(random() ** 3 * 14) : Math.floor(random() * 100) - 2;
    const known = random() < 0.98;
    const key = known ? install.key : `lost-${at}`;
    const day = addDays(install.day, age);
    const money =
      random() < 0.2
        ? pick([
            ['USD', 99],
            ['EUR', 499],
            ['JPY', 120],
          ] as const)
        : null;
    const id = `e${at}`;
    const event: FunnelMessage['event'] = money
      ? { type: 'event', name: 'buy', currency: money[0], amount: random() < 0.05 ? -money[1] : money[1] }
      : random() < 0.5
        ? { type: 'open', method: 'clipboard' }
        : { type: 'event', name: 'play' };
    const amount = event.type === 'event' && event.amount !== undefined ? event.amount : 0;
    events.push({ id, install: key, day, currency: money ? money[0] : '', amount });
    const message: FunnelMessage = { v: 1, id, day, event, dims: NO_DIMENSIONS, install: key };
    // Sent when it happened, or days later (an app offline); the install itself may arrive later still.
    const sent = Date.parse(day) + random() * 86_400_000 + (random() < 0.1 ? random() * 5 * 86_400_000 : 0);
    timeline.push({ at: sent, message });
    if (random() < 0.05) timeline.push({ at: sent + 60_000, message });
  }
  timeline.sort((a, b) => a.at - b.at);
  return { installs, events, messages: timeline.map(({ message }) => message) };
}

/** Folds `messages` batch by batch as the consumer does: each id once, rows kept in memory. */
function fold(messages: readonly FunnelMessage[]): Map<string, number> {
  const members = new Map<string, CohortMember>();
  const cells = new Map<string, number>();
  const counted = new Set<string>();
  for (let at = 0; at < messages.length; at += BATCH) {
    const fresh = messages.slice(at, at + BATCH).filter((m) => !counted.has(m.id) && counted.add(m.id));
    const result = foldCohorts(fresh, members, TODAY);
    for (const member of result.members) members.set(member.install, { ...member, version: 0 });
    for (const [day, channel, , , , , age, metric, n] of result.increments) {
      const key = JSON.stringify([day, channel, age, metric]);
      cells.set(key, (cells.get(key) ?? 0) + n);
    }
  }
  return cells;
}

/** `/api/cohorts`' read over the rollup's cells, as D1 would answer its query grouped by channel. */
async function answer(cells: Map<string, number>, ages: number) {
  // As D1 answers the read's query: each cohort's metric with its days packed `age:n,…`.
  const packed = new Map<string, { day: string; key: string; metric: string; cells: string[] }>();
  for (const [id, n] of cells) {
    const [day, channel, age, metric] = JSON.parse(id) as [string, string, number, string];
    if (age > ages) continue;
    const group = JSON.stringify([day, channel, metric]);
    const row = packed.get(group) ?? { day, key: channel, metric, cells: [] };
    row.cells.push(`${age}:${n}`);
    packed.set(group, row);
  }
  const results = [...packed.values()].map((row) => ({ ...row, cells: row.cells.join(',') }));
  const statement = { bind: () => statement, all: async () => ({ results }) };
  const db = { prepare: () => statement } as unknown as D1Database;
  return readCohorts(db, 'default', { from: FIRST, to: TODAY, by: 'channel', ages }, TODAY);
}

const started = performance.now();
const { installs, events, messages } = traffic();
const cells = fold(messages);
const got = (await answer(cells, 90)).rows;
const expected = recount(installs, events, TODAY, 90);
const flat = (rows: typeof got) =>
  new Map(
    rows.flatMap((row) => [
      [`${row.day} ${row.key} installs`, row.installs],
      ...row.retained.map((n, age): [string, number | null] => [`${row.day} ${row.key} retained ${age}`, n]),
      ...Object.entries(row.value).flatMap(([currency, sums]) =>
        sums.map((n, age): [string, number | null] => [`${row.day} ${row.key} ${currency} ${age}`, n]),
      ),
    ]),
  );
const a = flat(got);
const b = flat(expected);
let mismatches = 0;
for (const key of new Set([...a.keys(), ...b.keys()])) if ((a.get(key) ?? 0) !== (b.get(key) ?? 0)) mismatches += 1;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `cohorts lab: ${events.length} events (${messages.length} messages with retries) of ${installs.length} installs, ` +
    `${got.length} cohorts, ${a.size} cells compared in ${seconds} s: ${mismatches} mismatches`,
);
process.exitCode = mismatches === 0 ? 0 : 1;
