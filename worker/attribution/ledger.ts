/**
 * `AttributionLedger`: the Durable Object that remembers, by key, what must outlive a network
 * bucket (docs/attribution.md). Sharded by the key's first characters (`ledgerFor`):
 * - the click index: a click id's bucket and time, so a carrier can claim its click wherever the
 *   install comes from, and the answer can say when the tap was;
 * - each click's claim: the one install it credited (docs/attribution.md, "Which clicks credit");
 * - install answers by `(app, installId)` hash: a retried install gets the same answer;
 * - each answer's explanation and whether a test device asked (docs/attribution.md, "Why an answer");
 * - each install's fraud flags, and the keyed visitor hash of each click (docs/fraud.md).
 */

import type { AdClick } from '../../shared/ad-clicks.ts';
import type { Explanation } from '../../shared/install-explanation.ts';
import { DAY_MS } from '../../shared/time-zone.ts';
import { appObjectName } from '../apps/app-keys.ts';
import type { Flag, InstallAnswer } from '../facts.ts';
import { inJurisdiction } from '../lib/jurisdiction.ts';
import { settingsOf } from '../settings.ts';
import type { ClickBucket, ObjectRow } from './click-bucket.ts';
import { SweptObject } from './swept-object.ts';

/**
 * How long the click index is kept (`RETENTION.ledger_clicks`, 90 days by default: as long as Google
 * Play keeps a referrer, a carrier may come back this late), and how long a retry of the same install
 * gets the same answer (`RETENTION.ledger_answers`, 30 days), docs/privacy.md#retention. A row keeps
 * the end it was given when written; the alarm deletes it then.
 */
const keptFor = (env: Env) => {
  const { retention } = settingsOf(env);
  return { clicks: retention.ledger_clicks * DAY_MS, answers: retention.ledger_answers * DAY_MS };
};

export interface IndexedClick {
  /** The network bucket's name. */
  bucket: string;
  at: number;
  /** The keyed hash of the page's visitor id, when it sent one (docs/fraud.md, self-referral). */
  visitor?: string | null;
}

/** An ad click's parameters as the page saw them, and when they are forgotten (docs/conversions.md#ad-click-ids). */
export interface KeptAdClick {
  ad: AdClick;
  /** The tap's time plus the attribution window: raw ids are kept no longer. */
  until: number;
}

/** The short link and variant of a tap (docs/smart-links.md#variants-and-the-sequential-test). */
export interface ClickArm {
  link: string;
  variant: string;
}

/**
 * A carrier's claim on its click: `credited` for the install that holds it (now or on a retry), with
 * when the tap was if it was recorded; `claimed` when another install holds it; `unknown` when the
 * click had to be seen tapped (its id is not one the worker issued) and never was.
 */
export type ClickClaim = { outcome: 'credited'; click: IndexedClick | null } | { outcome: 'claimed' | 'unknown' };

/** What the ledger keeps about an answered install besides its answer. */
export interface AnswerNote {
  explanation: Explanation;
  /** A test device's install (docs/attribution.md): never counted, nor are its events. */
  test: boolean;
}

/** An answered install: the answer, why, and when. */
export interface AnswerRecord extends AnswerNote {
  answer: InstallAnswer;
  /** When it was answered; null for an answer kept before notes existed. */
  at: number | null;
  /** The fraud rules' flags on it (docs/fraud.md); the answer itself never changes. */
  flags: Flag[];
}

/** Whom a privacy request is about (docs/privacy.md#requests-erasure-and-access), by the keyed hashes kept. */
export interface SubjectHashes {
  /** Install keys (resolve-install.ts `installKey`). */
  installs: readonly string[];
  /** Keyed visitor hashes (record-click.ts `visitorHash`). */
  visitors: readonly string[];
}

/** A subject's rows in one object, by table, and the network buckets its clicks were kept in. */
export interface SubjectRows {
  rows: Record<string, ObjectRow[]>;
  /** Click ids of the subject's taps and claims. */
  clickIds: string[];
  buckets: string[];
}

/** Each table and the key its rows of a subject are found by: the install keys, or the click ids. */
const SUBJECT_TABLES: Record<string, ['key' | 'click_id', 'installs' | 'clicks']> = {
  answers: ['key', 'installs'],
  notes: ['key', 'installs'],
  flags: ['key', 'installs'],
  clicks: ['click_id', 'clicks'],
  click_visitors: ['click_id', 'clicks'],
  click_claims: ['click_id', 'clicks'],
  click_arms: ['click_id', 'clicks'],
  click_ads: ['click_id', 'clicks'],
};

/** Every table the ledger keeps, each row with its `keep_until`. */
const SWEPT_TABLES = [
  'clicks',
  'answers',
  'notes',
  'flags',
  'click_visitors',
  'click_claims',
  'click_arms',
  'click_ads',
] as const;

export class AttributionLedger extends SweptObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS clicks (
      click_id TEXT PRIMARY KEY, bucket TEXT NOT NULL, at INTEGER NOT NULL, keep_until INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS answers (
      key TEXT PRIMARY KEY, answer TEXT NOT NULL, keep_until INTEGER NOT NULL)`);
    // Beside answers rather than in it: answers stored before explanations existed keep their shape.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS notes (
      key TEXT PRIMARY KEY, explanation TEXT NOT NULL, test INTEGER NOT NULL, at INTEGER NOT NULL, keep_until INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS flags (
      key TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL, keep_until INTEGER NOT NULL, PRIMARY KEY (key, rule))`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS click_visitors (
      click_id TEXT PRIMARY KEY, visitor TEXT NOT NULL, keep_until INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS click_claims (
      click_id TEXT PRIMARY KEY, claimant TEXT NOT NULL, keep_until INTEGER NOT NULL)`);
    // The short link and variant a tap was made on (docs/smart-links.md): its install counts under them.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS click_arms (
      click_id TEXT PRIMARY KEY, link TEXT NOT NULL, variant TEXT NOT NULL, keep_until INTEGER NOT NULL)`);
    // The ad network's click parameters of a tap (docs/conversions.md#ad-click-ids), raw, for the
    // attribution window only: its own end, not the click index's 90 days.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS click_ads (
      click_id TEXT PRIMARY KEY, ad TEXT NOT NULL, keep_until INTEGER NOT NULL)`);
  }

  /** Keeps the ad click of the tap `clickId` until `ad.until`. */
  async noteAd(clickId: string, ad: KeptAdClick): Promise<void> {
    this.sql.exec('INSERT OR IGNORE INTO click_ads VALUES (?, ?, ?)', clickId, JSON.stringify(ad.ad), ad.until);
    await this.wakeBy(ad.until);
  }

  /** The ad click of the tap `clickId`, while its window lasts (the alarm may not have run yet). */
  adOf(clickId: string, now: number): AdClick | null {
    const row = this.sql
      .exec<{ ad: string }>('SELECT ad FROM click_ads WHERE click_id = ? AND keep_until > ?', clickId, now)
      .toArray()[0];
    return row ? (JSON.parse(row.ad) as AdClick) : null;
  }

  /**
   * Gives `clickId` to the install `claimant` unless another install holds it: one click credits
   * one install, however many carry it. `seen` says whether the click must have been recorded at its
   * tap (an id the worker did not issue). Kept as long as a carrier may come back (the Play referrer's
   * 90 days), so a reinstall with the same carrier is not credited again.
   */
  async claimClick(clickId: string, claimant: string, now: number, seen: boolean): Promise<ClickClaim> {
    const click = this.lookupClick(clickId);
    if (seen && !click) return { outcome: 'unknown' };
    const holder = this.holderOf(clickId);
    if (holder !== undefined && holder !== claimant) return { outcome: 'claimed' };
    if (holder === undefined) {
      const keepUntil = now + keptFor(this.env).clicks;
      this.sql.exec('INSERT INTO click_claims VALUES (?, ?, ?)', clickId, claimant, keepUntil);
      await this.wakeBy(keepUntil);
    }
    return { outcome: 'credited', click };
  }

  /** Whether another install than `claimant` holds `clickId` (a test device's look, which claims nothing). */
  heldByOther(clickId: string, claimant: string): boolean {
    const holder = this.holderOf(clickId);
    return holder !== undefined && holder !== claimant;
  }

  /** The install that holds `clickId`, if one does. */
  private holderOf(clickId: string): string | undefined {
    return this.sql
      .exec<{ claimant: string }>('SELECT claimant FROM click_claims WHERE click_id = ?', clickId)
      .toArray()[0]?.claimant;
  }

  async indexClick(clickId: string, click: IndexedClick): Promise<void> {
    const keepUntil = click.at + keptFor(this.env).clicks;
    this.sql.exec('INSERT OR IGNORE INTO clicks VALUES (?, ?, ?, ?)', clickId, click.bucket, click.at, keepUntil);
    if (click.visitor)
      this.sql.exec('INSERT OR IGNORE INTO click_visitors VALUES (?, ?, ?)', clickId, click.visitor, keepUntil);
    await this.wakeBy(keepUntil);
  }

  lookupClick(clickId: string): IndexedClick | null {
    const row = this.sql
      .exec<{ bucket: string; at: number }>('SELECT bucket, at FROM clicks WHERE click_id = ?', clickId)
      .toArray()[0];
    return row ? { bucket: row.bucket, at: row.at } : null;
  }

  /** The keyed visitor hash the click's page sent, if any. */
  visitorOf(clickId: string): string | null {
    const row = this.sql
      .exec<{ visitor: string }>('SELECT visitor FROM click_visitors WHERE click_id = ?', clickId)
      .toArray()[0];
    return row?.visitor ?? null;
  }

  /** Keeps the short link and variant the tap `clickId` was made on, once verified (facts-of.ts `tapped`). */
  async noteArm(clickId: string, arm: ClickArm, at: number): Promise<void> {
    const keepUntil = at + keptFor(this.env).clicks;
    this.sql.exec('INSERT OR IGNORE INTO click_arms VALUES (?, ?, ?, ?)', clickId, arm.link, arm.variant, keepUntil);
    await this.wakeBy(keepUntil);
  }

  /** The short link and variant the tap `clickId` was made on, if it was made on a link with variants. */
  armOf(clickId: string): ClickArm | null {
    const row = this.sql
      .exec<{ link: string; variant: string }>('SELECT link, variant FROM click_arms WHERE click_id = ?', clickId)
      .toArray()[0];
    return row ? { link: row.link, variant: row.variant } : null;
  }

  /** Adds `flags` to the answered install `key` (a rule flags once); returns all its flags. */
  async flag(key: string, flags: readonly Flag[], now: number): Promise<Flag[]> {
    const keepUntil = now + keptFor(this.env).answers;
    for (const flag of flags)
      this.sql.exec('INSERT OR IGNORE INTO flags VALUES (?, ?, ?, ?)', key, flag.rule, flag.reason, keepUntil);
    if (flags.length > 0) await this.wakeBy(keepUntil);
    return this.flagsOf(key);
  }

  flagsOf(key: string): Flag[] {
    return this.sql
      .exec<{ rule: string; reason: string }>('SELECT rule, reason FROM flags WHERE key = ? ORDER BY rule', key)
      .toArray()
      .map((row) => ({ rule: row.rule as Flag['rule'], reason: row.reason }));
  }

  answerOf(key: string): InstallAnswer | null {
    const row = this.sql.exec<{ answer: string }>('SELECT answer FROM answers WHERE key = ?', key).toArray()[0];
    return row ? (JSON.parse(row.answer) as InstallAnswer) : null;
  }

  /** The answer for `key` with its note; an answer kept before notes existed has an empty one. */
  recordOf(key: string): AnswerRecord | null {
    const row = this.sql
      .exec<{ answer: string; explanation: string | null; test: number | null; at: number | null }>(
        'SELECT answer, explanation, test, at FROM answers LEFT JOIN notes USING (key) WHERE key = ?',
        key,
      )
      .toArray()[0];
    if (!row) return null;
    return {
      answer: JSON.parse(row.answer) as InstallAnswer,
      explanation: row.explanation ? (JSON.parse(row.explanation) as Explanation) : { carriers: [], network: null },
      test: row.test === 1,
      at: row.at,
      flags: this.flagsOf(key),
    };
  }

  /**
   * Stores the first answer for `key`, with its note, and returns the stored one: concurrent retries
   * agree. `first` says whether this call stored it, so the install is counted once (docs/operators.md).
   */
  async remember(
    key: string,
    answer: InstallAnswer,
    now: number,
    note?: AnswerNote,
  ): Promise<{ answer: InstallAnswer; first: boolean }> {
    const keepUntil = now + keptFor(this.env).answers;
    const cursor = this.sql.exec(
      'INSERT OR IGNORE INTO answers VALUES (?, ?, ?)',
      key,
      JSON.stringify(answer),
      keepUntil,
    );
    const first = cursor.rowsWritten > 0;
    if (first && note) {
      this.sql.exec(
        'INSERT OR REPLACE INTO notes VALUES (?, ?, ?, ?, ?)',
        key,
        JSON.stringify(note.explanation),
        note.test ? 1 : 0,
        now,
        keepUntil,
      );
    }
    await this.wakeBy(keepUntil);
    return { answer: this.answerOf(key) ?? answer, first };
  }

  /**
   * The rows of a subject in this shard (docs/privacy.md#requests-erasure-and-access): its installs'
   * answers, notes and flags, and every click it tapped (its visitor hash) or claimed (its install
   * key) with that click's index, claim and arm. `erase` deletes them in the same synchronous step.
   */
  subjectRows(subject: SubjectHashes, erase: boolean): SubjectRows {
    const installs = JSON.stringify(subject.installs);
    const visitors = JSON.stringify(subject.visitors);
    const clickIds = this.sql
      .exec<{ click_id: string }>(
        'SELECT click_id FROM click_claims WHERE claimant IN (SELECT value FROM json_each(?1)) ' +
          'UNION SELECT click_id FROM click_visitors WHERE visitor IN (SELECT value FROM json_each(?2))',
        installs,
        visitors,
      )
      .toArray()
      .map((row) => row.click_id);
    const keys = { installs, clicks: JSON.stringify(clickIds) };
    const rows: Record<string, ObjectRow[]> = {};
    for (const [table, [column, by]] of Object.entries(SUBJECT_TABLES)) {
      const where = `${column} IN (SELECT value FROM json_each(?))`;
      const found = this.sql.exec<ObjectRow>(`SELECT * FROM ${table} WHERE ${where}`, keys[by]).toArray();
      if (found.length === 0) continue;
      rows[table] = found;
      if (erase) this.sql.exec(`DELETE FROM ${table} WHERE ${where}`, keys[by]);
    }
    const buckets = [...new Set((rows.clicks ?? []).map((row) => String(row.bucket)).filter(Boolean))];
    return { rows, clickIds, buckets };
  }

  protected sweep(now: number): number | null {
    let next: number | null = null;
    // One table at a time: SQLite refuses a compound SELECT of this many terms.
    for (const table of SWEPT_TABLES) {
      this.sql.exec(`DELETE FROM ${table} WHERE keep_until <= ?`, now);
      const first = this.sql.exec<{ t: number | null }>(`SELECT MIN(keep_until) AS t FROM ${table}`).one().t;
      if (first !== null && (next === null || first < next)) next = first;
    }
    return next;
  }
}

/**
 * The ledger shard that holds `key` (a click id or a keyed hash: both uniformly random), by its first
 * character: 64 shards per app (apps/app-keys.ts), each a few hundred writes a second at most on a busy day, all kept warm.
 */
export function ledgerFor(env: Env, app: string, key: string): DurableObjectStub<AttributionLedger> {
  const ledgers = inJurisdiction(env.ATTRIBUTION_LEDGER, settingsOf(env).jurisdiction);
  return ledgers.get(ledgers.idFromName(appObjectName(app, `ledger:${key.slice(0, 1)}`)));
}

/** The bucket of a network (its keyed hash) in app `app` (apps/app-keys.ts). */
export function bucketFor(env: Env, app: string, bucket: string): DurableObjectStub<ClickBucket> {
  const buckets = inJurisdiction(env.CLICK_BUCKETS, settingsOf(env).jurisdiction);
  return buckets.get(buckets.idFromName(appObjectName(app, bucket)));
}
