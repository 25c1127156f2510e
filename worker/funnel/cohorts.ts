/**
 * Cohorts in D1 (docs/operators.md#cohorts): the consumer reads the rows of a batch's installs with
 * its other reads (`cohortRead`), folds the batch (cohort-fold.ts) and writes the installs' new rows
 * and the rollups' increments in the same transaction as the funnel's counts (`cohortWrites`).
 *
 * Two batches racing on one install cannot both count its day: a new row is a plain INSERT (the
 * second fails on the key), a known one is updated only from the version it was read at (else its
 * version becomes -1, which the table's CHECK refuses); the failed transaction is retried and reads anew.
 */
import { utcDay } from '../../shared/time-zone.ts';
import {
  type CohortFold,
  type CohortKey,
  type CohortMember,
  countsCohorts,
  foldCohorts,
  installsOf,
  type Pending,
} from './cohort-fold.ts';
import type { FunnelMessage } from './events.ts';

const at = (index: number): string => `json_extract(value, '$[${index}]')`;
const fields = (count: number): string => Array.from({ length: count }, (_, index) => at(index)).join(', ');
const COLUMNS = 'install, day, channel, inviter, link, variant, method, seen, pending, until, version';
const READ = `SELECT ${COLUMNS} FROM cohort_installs WHERE app = ?2 AND install IN (SELECT value FROM json_each(?1))`;
const INSERT_MEMBERS = `INSERT INTO cohort_installs (app, ${COLUMNS}) SELECT ?2, ${fields(10)}, 0 FROM json_each(?1)`;
const UPDATE_MEMBERS =
  'UPDATE cohort_installs SET day = u.day, channel = u.channel, inviter = u.inviter, link = u.link, ' +
  'variant = u.variant, method = u.method, seen = u.seen, pending = u.pending, until = u.until, ' +
  'version = CASE WHEN cohort_installs.version = u.version THEN u.version + 1 ELSE -1 END ' +
  `FROM (SELECT ${at(0)} AS install, ${at(1)} AS day, ${at(2)} AS channel, ${at(3)} AS inviter, ${at(4)} AS link, ` +
  `${at(5)} AS variant, ${at(6)} AS method, ${at(7)} AS seen, ${at(8)} AS pending, ${at(9)} AS until, ` +
  `${at(10)} AS version FROM json_each(?1)) AS u WHERE cohort_installs.app = ?2 AND cohort_installs.install = u.install`;
const ROLLUP_KEY = 'app, day, channel, inviter, link, variant, method, age, metric';
const ADD_ROLLUP =
  `INSERT INTO cohort_daily (${ROLLUP_KEY}, n) SELECT ?2, ${fields(9)} FROM json_each(?1) WHERE true ` +
  `ON CONFLICT (${ROLLUP_KEY}) DO UPDATE SET n = n + excluded.n`;
const FORGET = 'DELETE FROM cohort_installs WHERE until < ?1';

interface MemberRow {
  install: string;
  day: string | null;
  channel: string;
  inviter: string;
  link: string;
  variant: string;
  method: string;
  seen: string;
  pending: string | null;
  until: string;
  version: number;
}

/** The read of the rows of `messages`' installs, or null when the batch has none. */
export function cohortRead(
  db: D1Database,
  app: string,
  messages: readonly FunnelMessage[],
): D1PreparedStatement | null {
  if (!countsCohorts(messages)) return null;
  return db.prepare(READ).bind(JSON.stringify(installsOf(messages)), app);
}

function memberOf(row: MemberRow): CohortMember {
  const cohort: CohortKey | null =
    row.day === null ? null : [row.day, row.channel, row.inviter, row.link, row.variant, row.method];
  const pending = row.pending === null ? null : (JSON.parse(row.pending) as Pending);
  return { install: row.install, cohort, seen: row.seen, pending, until: row.until, version: row.version };
}

/** `messages` folded against the rows read (`cohortRead`'s results), on the UTC day of `now`. */
export function foldBatch(messages: readonly FunnelMessage[], rows: readonly unknown[], now: number): CohortFold {
  const known = new Map((rows as MemberRow[]).map((row) => [row.install, memberOf(row)]));
  return foldCohorts(messages, known, utcDay(now));
}

const rowOf = (member: CohortMember): unknown[] => {
  const [day, channel, inviter, link, variant, method] = member.cohort ?? [null, '', '', '', '', ''];
  const pending = member.pending === null ? null : JSON.stringify(member.pending);
  return [member.install, day, channel, inviter, link, variant, method, member.seen, pending, member.until];
};

/** The statements that keep `fold`, and forget rows past their day: none for an empty fold. */
export function cohortWrites(db: D1Database, app: string, fold: CohortFold, now: number): D1PreparedStatement[] {
  if (fold.members.length === 0) return [];
  const fresh = fold.members.filter((member) => member.version === null).map(rowOf);
  const known = fold.members
    .filter((member) => member.version !== null)
    .map((member) => [...rowOf(member), member.version]);
  return [
    ...(fresh.length > 0 ? [db.prepare(INSERT_MEMBERS).bind(JSON.stringify(fresh), app)] : []),
    ...(known.length > 0 ? [db.prepare(UPDATE_MEMBERS).bind(JSON.stringify(known), app)] : []),
    ...(fold.increments.length > 0 ? [db.prepare(ADD_ROLLUP).bind(JSON.stringify(fold.increments), app)] : []),
    db.prepare(FORGET).bind(utcDay(now)),
  ];
}
