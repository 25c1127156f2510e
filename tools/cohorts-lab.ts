/**
 * `npm run lab:cohorts` (docs/operators.md#cohorts): a million synthetic app events and opens of
 * installs over four months — late by days, retried with their ids, some before their install is
 * counted, of eight channels and three install methods — folded in queue batches of 100 by the
 * consumer's own fold (worker/funnel/cohort-fold.ts) over an in-memory store of the installs' rows,
 * read back by `/api/cohorts`' own read (`readCohorts`, over the rollup's cells), and compared cell
 * by cell with a brute-force recount of the daily exports: each event is written, once per id, as
 * its NDJSON line (the webhook body and its id, `timestamp` when it happened) into a gzip part of the
 * day it arrived, the parts are read back from disk, and the cohorts are recounted from the lines
 * (tests/fixtures/cohort-recount.ts, as the exports' property test does). Prints the cells compared
 * and the mismatches; also those against the synthetic events themselves.
 *
 *   npm run lab:cohorts [-- --events 1000000 --seed 7]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { addDays } from '../shared/day-range.ts';
import { exponentOf } from '../shared/money.ts';
import { utcDay } from '../shared/time-zone.ts';
import type { ExportLine } from '../shared/webhooks.ts';
import { type CohortEvent, type CohortInstall, fromExports, recount } from '../tests/fixtures/cohort-recount.ts';
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
  const installs: CohortInstall[] = Array.from({ length: Math.ceil(EVENTS / 10) }, (_, at) => {
    const day = addDays(FIRST, Math.floor(random() * 120));
    const channel = `channel-${Math.floor(random() ** 2 * 8)}`;
    const inviter = random() < 0.3 ? 'Ann' : '';
    const method = pick(METHODS);
    // An install not matched has no tap, so no campaign: it counts under no channel.
    const matched = method !== 'unmatched:none';
    return { key: `i${at}`, day, channel: matched ? channel : '', inviter: matched ? inviter : '', method };
  });
  const events: CohortEvent[] = [];
  const timeline: { at: number; happened: number; message: FunnelMessage }[] = installs.map((install) => {
    const at = Date.parse(install.day) + random() * 86_400_000;
    return { at, happened: at, message: installMessage(install) };
  });
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
    const happened = Date.parse(day) + random() * 86_400_000;
    const late = random() < 0.1 ? random() * 5 * 86_400_000 : 0;
    // An open is counted when it arrives (it carries no time of its own); an app event may come late.
    const sent = happened + (event.type === 'open' ? 0 : late);
    timeline.push({ at: sent, happened, message });
    if (random() < 0.05) timeline.push({ at: sent + 60_000, happened, message });
  }
  timeline.sort((a, b) => a.at - b.at);
  return { installs, events, timeline, messages: timeline.map(({ message }) => message) };
}

const byKey = new Map<string, CohortInstall>();

/** The export line of `message` (docs/webhooks.md#exports): its webhook body and id, `timestamp` when it happened. */
function exportLine(message: FunnelMessage, happened: number): ExportLine {
  const timestamp = new Date(happened).toISOString();
  // As the webhooks' ids: an install's is its key, an event's its own id.
  const id = `msg_${message.id.replace(/^install:/, '')}`;
  const { event } = message;
  if (event.type === 'install') {
    const install = byKey.get(message.id.slice('install:'.length)) as CohortInstall;
    const matched = install.method !== 'unmatched:none';
    const campaign = { channel: install.channel, ...(install.inviter ? { inviter: install.inviter } : {}) };
    return {
      id,
      type: 'install',
      timestamp,
      data: {
        app: 'com.pebble.notes',
        platform: 'android',
        install: install.key,
        matched,
        method: matched ? (install.method as 'clipboard' | 'referrer') : null,
        confidence: matched ? 100 : null,
        campaign: matched ? campaign : {},
        clickedAt: null,
        reason: matched ? null : 'none',
        flags: [],
        country: '',
      },
    };
  }
  const install = message.install ?? '';
  if (event.type === 'open') {
    const data = { app: 'com.pebble.notes', platform: null, install, matched: true, method: 'clipboard' as const };
    const rest = { confidence: 100, campaign: {}, clickedAt: null, reason: null, flags: [], country: '' };
    return { id, type: 'open', timestamp, data: { ...data, ...rest } };
  }
  const name = event.type === 'event' ? event.name : 'play';
  const currency = event.type === 'event' ? event.currency : undefined;
  const amount = event.type === 'event' ? event.amount : undefined;
  // Its value in the currency's major unit, as the app sent it and the webhook carries it.
  const value = currency && amount !== undefined ? amount / 10 ** (exponentOf(currency) ?? 0) : null;
  const data = { app: 'com.pebble.notes', install, name, value, ...(currency ? { currency } : {}) };
  return { id, type: 'event', timestamp, data: { ...data, matched: true, campaign: {}, country: '' } };
}

/**
 * Writes the daily exports of `timeline` to `dir`: one gzip NDJSON part per day the events arrived
 * on, one line per event id (the webhooks' store keeps an id once); answers the lines read back.
 */
function exportedLines(timeline: readonly { at: number; happened: number; message: FunnelMessage }[], dir: string) {
  const days = new Map<string, string[]>();
  const written = new Set<string>();
  for (const { at, happened, message } of timeline) {
    if (written.has(message.id)) continue;
    written.add(message.id);
    const day = utcDay(at);
    const lines = days.get(day) ?? [];
    lines.push(JSON.stringify(exportLine(message, happened)));
    days.set(day, lines);
  }
  for (const [day, lines] of days) writeFileSync(join(dir, `date=${day}.ndjson.gz`), gzipSync(`${lines.join('\n')}\n`));
  days.clear();
  const read: ExportLine[] = [];
  for (const name of readdirSync(dir)) {
    const text = gunzipSync(readFileSync(join(dir, name))).toString('utf8');
    for (const line of text.split('\n')) if (line) read.push(JSON.parse(line) as ExportLine);
  }
  return { lines: read, parts: readdirSync(dir).length };
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
const { installs, events, timeline, messages } = traffic();
for (const install of installs) byKey.set(install.key, install);
const cells = fold(messages);
const got = (await answer(cells, 90)).rows;
const dir = mkdtempSync(join(tmpdir(), 'cohorts-lab-'));
const exported = (() => {
  try {
    return exportedLines(timeline, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
const fromLines = fromExports(exported.lines, utcDay);
const expected = recount(fromLines.installs, fromLines.events, TODAY, 90);
const synthetic = recount(installs, events, TODAY, 90);
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
const differences = (x: ReturnType<typeof flat>, y: ReturnType<typeof flat>): number => {
  let count = 0;
  for (const key of new Set([...x.keys(), ...y.keys()])) if ((x.get(key) ?? 0) !== (y.get(key) ?? 0)) count += 1;
  return count;
};
const a = flat(got);
const mismatches = differences(a, flat(expected));
const againstEvents = differences(a, flat(synthetic));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `cohorts lab: ${events.length} events (${messages.length} messages with retries) of ${installs.length} installs, ` +
    `${exported.lines.length} export lines in ${exported.parts} daily parts, ${got.length} cohorts, ` +
    `${a.size} cells compared in ${seconds} s: ${mismatches} mismatches against the exports' recount ` +
    `(${againstEvents} against the synthetic events)`,
);
process.exitCode = mismatches === 0 && againstEvents === 0 ? 0 : 1;
