/**
 * `ClickBucket`: the Durable Object holding one network's recent clicks (docs/attribution.md), the
 * candidates of the probabilistic match. One object per network bucket (the keyed hash of the IPv4
 * /24 or IPv6 /64), so a match reads only its own network, and SQLite storage with synchronous
 * queries makes "find the one candidate and claim it" a single atomic step. An alarm deletes what
 * the window leaves behind; a claimed click is deleted at once.
 */
import type { NetworkReport, TupleField } from '../../shared/install-explanation.ts';
import { compatible, type DeviceTuple, matchConfidence } from './match-rules.ts';
import { networkReport } from './network-report.ts';
import { SweptObject } from './swept-object.ts';

/** A click as the bucket stores it: the tuple, hashes, the token; never an address or an agent. */
export interface BucketClick extends DeviceTuple {
  clickId: string;
  /** When the worker received it (ms since the epoch). */
  at: number;
  /** Keyed hash of the visitor id, when the page had one. */
  visitor: string | null;
  /** Keyed hash of the whole address. */
  address: string;
  /** The page's campaign token, when it had one. */
  token: string | null;
}

/** A row of an object's table, as privacy requests read it (docs/privacy.md#requests-erasure-and-access). */
export type ObjectRow = Record<string, string | number | null>;

/** The match, with the report that explains it (network-report.ts). */
export type BucketMatch = (
  | { kind: 'matched'; click: BucketClick; confidence: number }
  | { kind: 'ambiguous' | 'expired' | 'none' }
) & { report: NetworkReport };

export interface MatchProbe {
  tuple: DeviceTuple;
  address: string;
  /** Who claims (the install's key): asking again gets the same click. */
  claimant: string;
  now: number;
  windowMs: number;
  /** A test device's look (docs/attribution.md, "Test devices"): the candidate is found, never taken. */
  look?: boolean;
}

/** How long a claim is remembered, so a retried install gets the same click back. */
const CLAIM_MEMORY_MS = 60 * 60 * 1000;

export class ClickBucket extends SweptObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS clicks (
      click_id TEXT PRIMARY KEY, at INTEGER NOT NULL, keep_until INTEGER NOT NULL, tuple TEXT NOT NULL,
      family TEXT NOT NULL, tz TEXT NOT NULL, lang TEXT NOT NULL, visitor TEXT, address TEXT NOT NULL, token TEXT)`);
    this.sql.exec('CREATE INDEX IF NOT EXISTS clicks_by_tuple ON clicks (family, tz, lang, at)');
    this.sql.exec(`CREATE TABLE IF NOT EXISTS claims (
      claimant TEXT PRIMARY KEY, click TEXT NOT NULL, confidence INTEGER NOT NULL, at INTEGER NOT NULL)`);
  }

  /** Keeps a click as a candidate until `keepUntil`. A repeated click id is ignored. */
  async record(click: BucketClick, keepUntil: number): Promise<void> {
    const { clickId, at, visitor, address, token, ...tuple } = click;
    this.sql.exec(
      'INSERT OR IGNORE INTO clicks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      clickId,
      at,
      keepUntil,
      JSON.stringify(tuple),
      tuple.family,
      tuple.tz,
      tuple.lang,
      visitor,
      address,
      token,
    );
    await this.wakeBy(keepUntil);
  }

  /** Removes a click a carrier claimed: it is never a probabilistic candidate again. */
  claim(clickId: string): boolean {
    return this.sql.exec('DELETE FROM clicks WHERE click_id = ?', clickId).rowsWritten > 0;
  }

  /** The unique candidate for `probe`, claimed unless it is a look; or why there is none. */
  async match(probe: MatchProbe): Promise<BucketMatch> {
    const remembered = this.sql
      .exec<{ click: string; confidence: number }>(
        'SELECT click, confidence FROM claims WHERE claimant = ?',
        probe.claimant,
      )
      .toArray()[0];
    if (remembered) {
      const click = JSON.parse(remembered.click) as BucketClick;
      const report = networkReport({ ...probe, outcome: 'matched', alike: [click], others: [] });
      return { kind: 'matched', click, confidence: remembered.confidence, report: { ...report, remembered: true } };
    }
    const { tuple, now, windowMs } = probe;
    const alike = this.sql
      .exec<Record<string, string | number | null>>(
        'SELECT * FROM clicks WHERE family = ? AND tz = ? AND lang = ? AND at <= ? ORDER BY at DESC',
        tuple.family,
        tuple.tz,
        tuple.lang,
        now,
      )
      .toArray()
      .map(rowToClick);
    const rows = alike.filter((click) => compatible(click, tuple));
    const live = rows.filter((click) => click.at >= now - windowMs);
    // Several clicks are one person only when the page's visitor id says so; without it each is its own.
    const people = new Set(live.map((click) => click.visitor ?? click.clickId));
    const kind = live.length === 0 ? (rows.length > 0 ? 'expired' : 'none') : people.size > 1 ? 'ambiguous' : 'matched';
    const report = networkReport({ ...probe, outcome: kind, alike, others: this.othersThan(tuple, now) });
    if (kind !== 'matched') return { kind, report };
    const [click] = live as [BucketClick, ...BucketClick[]];
    const confidence = matchConfidence(click, tuple, {
      sameAddress: click.address === probe.address,
      minutes: (now - click.at) / 60_000,
    });
    // A test device's look leaves the click to the real installer who may come after it.
    if (probe.look) return { kind: 'matched', click, confidence, report };
    for (const taken of live) this.sql.exec('DELETE FROM clicks WHERE click_id = ?', taken.clickId);
    this.sql.exec('INSERT INTO claims VALUES (?, ?, ?, ?)', probe.claimant, JSON.stringify(click), confidence, now);
    await this.wakeBy(now + CLAIM_MEMORY_MS);
    return { kind: 'matched', click, confidence, report };
  }

  /** The kept taps that differ from `tuple` in OS family, time zone or language, counted by the first: for the report. */
  private othersThan(tuple: DeviceTuple, now: number): { field: TupleField; count: number }[] {
    return this.sql
      .exec<{ field: TupleField; count: number }>(
        `SELECT CASE WHEN family != ?1 THEN 'os' WHEN tz != ?2 THEN 'timeZone' ELSE 'language' END AS field,
          COUNT(*) AS count FROM clicks WHERE at <= ?4 AND NOT (family = ?1 AND tz = ?2 AND lang = ?3) GROUP BY field`,
        tuple.family,
        tuple.tz,
        tuple.lang,
        now,
      )
      .toArray();
  }

  /**
   * A subject's rows here (docs/privacy.md#requests-erasure-and-access): its clicks, by click id or
   * keyed visitor hash, and the claims of its installs or of its clicks; `erase` deletes them.
   */
  subjectRows(
    subject: { clickIds: readonly string[]; visitors: readonly string[]; installs: readonly string[] },
    erase: boolean,
  ): Record<string, ObjectRow[]> {
    const [ids, visitors, installs] = [subject.clickIds, subject.visitors, subject.installs].map((list) =>
      JSON.stringify(list),
    );
    const within = 'IN (SELECT value FROM json_each(?))';
    const queries: Record<string, [string, string[]]> = {
      clicks: [`click_id ${within} OR visitor ${within}`, [ids, visitors] as string[]],
      claims: [
        `claimant ${within} OR json_extract(click, '$.clickId') ${within} OR json_extract(click, '$.visitor') ${within}`,
        [installs, ids, visitors] as string[],
      ],
    };
    const rows: Record<string, ObjectRow[]> = {};
    for (const [table, [condition, args]] of Object.entries(queries)) {
      const found = this.sql.exec<ObjectRow>(`SELECT * FROM ${table} WHERE ${condition}`, ...args).toArray();
      if (found.length === 0) continue;
      rows[table] = found;
      if (erase) this.sql.exec(`DELETE FROM ${table} WHERE ${condition}`, ...args);
    }
    return rows;
  }

  protected sweep(now: number): number | null {
    this.sql.exec('DELETE FROM clicks WHERE keep_until <= ?', now);
    this.sql.exec('DELETE FROM claims WHERE at <= ?', now - CLAIM_MEMORY_MS);
    return this.sql
      .exec<{ next: number | null }>(
        'SELECT MIN(t) AS next FROM (SELECT MIN(keep_until) AS t FROM clicks UNION ALL SELECT MIN(at) + ? FROM claims)',
        CLAIM_MEMORY_MS,
      )
      .one().next;
  }
}

function rowToClick(row: Record<string, string | number | null>): BucketClick {
  return {
    ...(JSON.parse(String(row.tuple)) as DeviceTuple),
    clickId: String(row.click_id),
    at: Number(row.at),
    visitor: row.visitor === null ? null : String(row.visitor),
    address: String(row.address),
    token: row.token === null ? null : String(row.token),
  };
}
