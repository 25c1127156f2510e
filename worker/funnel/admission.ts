/**
 * What of a batch the funnel counts (docs/operators.md#bounds): at most `OPENS_PER_INSTALL_DAY` opens
 * and `EVENTS_PER_INSTALL_DAY` app events of one install a day — the rest are counted as
 * `opens-over-cap` / `events-over-cap` in the loss counter (`GET /api/losses`) — and at most
 * `EVENT_NAMES_PER_APP` event names per app, a newer name's events counted under `(other)`.
 *
 * The consumer reads what it needs (`admissionReads`, beside its read of the ids already counted),
 * decides here in the batch's order, and writes the counters in the same transaction as the counts
 * (`admissionWrites`), so a redelivered batch is decided once. A message without an install or an
 * app (one queued before the bounds) is counted as before.
 */
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { EVENT_NAMES_PER_APP, EVENTS_PER_INSTALL_DAY, OPENS_PER_INSTALL_DAY, OTHER_EVENT_NAME } from './bounds.ts';
import type { FunnelMessage } from './events.ts';

/** Days an install's counters are kept: an event is counted in its own day, which is today or yesterday. */
const INSTALL_DAYS = 2;

type Kind = 'event' | 'open';
const CAPS: Record<Kind, number> = { event: EVENTS_PER_INSTALL_DAY, open: OPENS_PER_INSTALL_DAY };
const OVER_CAP = { event: 'events-over-cap', open: 'opens-over-cap' } as const;

const at = (index: number): string => `json_extract(value, '$[${index}]')`;
const READ_USES =
  'SELECT u.day, u.install, u.kind, u.n FROM json_each(?1) JOIN funnel_install_days u ' +
  `ON u.app = ?2 AND u.day = ${at(0)} AND u.install = ${at(1)} AND u.kind = ${at(2)}`;
const READ_NAMES = `SELECT n.app_id, n.name FROM json_each(?1) JOIN funnel_event_names n ON n.app = ?2 AND n.app_id = ${at(0)} AND n.name = ${at(1)}`;
const READ_NAME_COUNTS =
  'SELECT app_id, n FROM funnel_event_name_counts WHERE app = ?2 AND app_id IN (SELECT value FROM json_each(?1))';
// `cap` is written with every count, so the table's CHECK holds it to the cap the code decided by.
const ADD_USES =
  `INSERT INTO funnel_install_days (app, day, install, kind, n, cap) SELECT ?2, ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)} ` +
  'FROM json_each(?1) WHERE true ON CONFLICT (app, day, install, kind) DO UPDATE SET n = n + excluded.n, cap = excluded.cap';
// A plain INSERT: a name another batch took meanwhile fails this transaction, and its retry reads it.
const ADD_NAMES = `INSERT INTO funnel_event_names (app, app_id, name, day) SELECT ?3, ${at(0)}, ${at(1)}, ?2 FROM json_each(?1)`;
const ADD_NAME_COUNTS =
  `INSERT INTO funnel_event_name_counts (app, app_id, n, cap) SELECT ?2, ${at(0)}, ${at(1)}, ${at(2)} FROM json_each(?1) ` +
  'WHERE true ON CONFLICT (app, app_id) DO UPDATE SET n = n + excluded.n, cap = excluded.cap';
const ADD_OVER_CAP =
  `INSERT INTO losses (day, what, n) SELECT ?2, ${at(0)}, ${at(1)} FROM json_each(?1) ` +
  'WHERE true ON CONFLICT (day, what) DO UPDATE SET n = n + excluded.n';
const FORGET_USES = 'DELETE FROM funnel_install_days WHERE day < ?1';

const kindOf = (message: FunnelMessage): Kind | null =>
  message.install && (message.event.type === 'event' || message.event.type === 'open') ? message.event.type : null;
const dayKey = (day: string, install: string, kind: string): string => JSON.stringify([day, install, kind]);
const nameKey = (app: string, name: string): string => JSON.stringify([app, name]);

/** A read `admit` needs: which of its answers it is, and the statement. */
export interface AdmissionRead {
  what: 'uses' | 'names' | 'nameCounts';
  statement: D1PreparedStatement;
}

/** What `messages` need read before they are decided; none for a batch without installs or apps. */
export function admissionReads(db: D1Database, app: string, messages: readonly FunnelMessage[]): AdmissionRead[] {
  const uses = new Map<string, string[]>();
  const names = new Map<string, string[]>();
  for (const message of messages) {
    const kind = kindOf(message);
    if (kind && message.install)
      uses.set(dayKey(message.day, message.install, kind), [message.day, message.install, kind]);
    if (message.app && message.event.type === 'event')
      names.set(nameKey(message.app, message.event.name), [message.app, message.event.name]);
  }
  const reads: AdmissionRead[] = [];
  if (uses.size > 0)
    reads.push({ what: 'uses', statement: db.prepare(READ_USES).bind(JSON.stringify([...uses.values()]), app) });
  if (names.size > 0) {
    const appIds = [...new Set([...names.values()].map(([appId]) => appId))];
    reads.push({ what: 'names', statement: db.prepare(READ_NAMES).bind(JSON.stringify([...names.values()]), app) });
    reads.push({ what: 'nameCounts', statement: db.prepare(READ_NAME_COUNTS).bind(JSON.stringify(appIds), app) });
  }
  return reads;
}

/** The rows of each read, by what it was. */
export type AdmissionRows = Partial<Record<AdmissionRead['what'], Record<string, unknown>[]>>;

/** The decision on a batch: the messages to count (names past the cap renamed) and what to record. */
export interface Admission {
  counted: FunnelMessage[];
  /** `[day, install, kind, added, cap]` */
  uses: (string | number)[][];
  /** `[app, name]` */
  names: string[][];
  /** `[app, added, cap]` */
  nameCounts: (string | number)[][];
  /** `[loss kind, n]` */
  overCap: (string | number)[][];
}

/** Decides `messages` (fresh, each id once, in the batch's order) against what `rows` read. */
export function admit(messages: readonly FunnelMessage[], rows: AdmissionRows): Admission {
  const used = new Map<string, number>();
  for (const row of rows.uses ?? [])
    used.set(dayKey(String(row.day), String(row.install), String(row.kind)), Number(row.n));
  const known = new Set((rows.names ?? []).map((row) => nameKey(String(row.app_id), String(row.name))));
  const nameCount = new Map((rows.nameCounts ?? []).map((row) => [String(row.app_id), Number(row.n)]));
  const added = new Map<string, { row: (string | number)[]; n: number }>();
  const newNames: string[][] = [];
  const namesAdded = new Map<string, number>();
  const over: Record<Kind, number> = { event: 0, open: 0 };
  const counted: FunnelMessage[] = [];
  for (const message of messages) {
    const kind = kindOf(message);
    if (kind && message.install) {
      const key = dayKey(message.day, message.install, kind);
      const n = used.get(key) ?? 0;
      if (n >= CAPS[kind]) {
        over[kind] += 1;
        continue;
      }
      used.set(key, n + 1);
      const entry = added.get(key) ?? { row: [message.day, message.install, kind], n: 0 };
      entry.n += 1;
      added.set(key, entry);
    }
    counted.push(message.app && message.event.type === 'event' ? named(message, message.app) : message);
  }
  return {
    counted,
    uses: [...added.values()].map(({ row, n }) => [...row, n, CAPS[row[2] as Kind]]),
    names: newNames,
    nameCounts: [...namesAdded].map(([app, n]) => [app, n, EVENT_NAMES_PER_APP]),
    overCap: (['event', 'open'] as const).filter((kind) => over[kind] > 0).map((kind) => [OVER_CAP[kind], over[kind]]),
  };

  /** `message` under its own name when the app has it or room for it, else under `(other)`. */
  function named(message: FunnelMessage, app: string): FunnelMessage {
    if (message.event.type !== 'event') return message;
    const { name } = message.event;
    const key = nameKey(app, name);
    if (known.has(key)) return message;
    const n = nameCount.get(app) ?? 0;
    if (n >= EVENT_NAMES_PER_APP) return { ...message, event: { ...message.event, name: OTHER_EVENT_NAME } };
    known.add(key);
    nameCount.set(app, n + 1);
    namesAdded.set(app, (namesAdded.get(app) ?? 0) + 1);
    newNames.push([app, name]);
    return message;
  }
}

/** The statements that record `admission` in the consumer's transaction; `now` dates the losses and the cleanup. */
export function admissionWrites(db: D1Database, app: string, admission: Admission, now: number): D1PreparedStatement[] {
  const writes: D1PreparedStatement[] = [];
  if (admission.uses.length > 0) {
    writes.push(db.prepare(ADD_USES).bind(JSON.stringify(admission.uses), app));
    writes.push(db.prepare(FORGET_USES).bind(utcDay(now - INSTALL_DAYS * DAY_MS)));
  }
  if (admission.names.length > 0) {
    writes.push(db.prepare(ADD_NAMES).bind(JSON.stringify(admission.names), utcDay(now), app));
    writes.push(db.prepare(ADD_NAME_COUNTS).bind(JSON.stringify(admission.nameCounts), app));
  }
  if (admission.overCap.length > 0)
    writes.push(db.prepare(ADD_OVER_CAP).bind(JSON.stringify(admission.overCap), utcDay(now)));
  return writes;
}
