/**
 * Every place a subject lives (docs/privacy.md#requests-erasure-and-access), read or erased in one
 * pass: D1's tables (d1-rows.ts), the webhooks' events, deliveries and log, and the keys that drop
 * their queued and dead-lettered messages (webhooks/erased.ts), every shard of the attribution ledger
 * and the network buckets its clicks name (the Durable Objects), and the daily exports in R2
 * (export-lines.ts). What was found, or removed, is answered per store and place.
 */
import type { ReceiptLine } from '../../shared/privacy.ts';
import { bucketFor, ledgerFor } from '../attribution/ledger.ts';
import { webhookSubjectRows } from '../webhooks/erased.ts';
import { d1SubjectRows } from './d1-rows.ts';
import { exportSubjectLines } from './export-lines.ts';
import type { SubjectKeys } from './subject.ts';

/** The first characters a ledger shard is named by (attribution/ledger.ts `ledgerFor`): URL-safe base64. */
const SHARDS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** What a pass found: each place (`<store> <where>`) with its rows, and the receipt's lines. */
export interface SubjectPass {
  found: Record<string, Record<string, unknown>[]>;
  lines: ReceiptLine[];
}

async function objectRows(env: Env, app: string, keys: SubjectKeys, erase: boolean) {
  const subject = { installs: keys.installs, visitors: keys.visitors };
  const shards = await Promise.all([...SHARDS].map((shard) => ledgerFor(env, app, shard).subjectRows(subject, erase)));
  const ledger: Record<string, Record<string, unknown>[]> = {};
  const buckets = new Set<string>();
  const clickIds = new Set<string>();
  for (const shard of shards) {
    for (const [table, rows] of Object.entries(shard.rows)) ledger[table] = [...(ledger[table] ?? []), ...rows];
    for (const bucket of shard.buckets) buckets.add(bucket);
    for (const id of shard.clickIds) clickIds.add(id);
  }
  const bucketSubject = { clickIds: [...clickIds], visitors: keys.visitors, installs: keys.installs };
  const bucketRows: Record<string, Record<string, unknown>[]> = {};
  for (const bucket of buckets) {
    const rows = await bucketFor(env, app, bucket).subjectRows(bucketSubject, erase);
    for (const [table, found] of Object.entries(rows)) bucketRows[table] = [...(bucketRows[table] ?? []), ...found];
  }
  return { ledger, bucketRows };
}

/**
 * The subject's data in every store of app `app`; `erase` removes it, each store in turn. A store
 * that fails throws, and the request is tried again from the start: every step finds only what is
 * left, so a second pass removes the rest and counts nothing twice.
 */
export async function subjectPass(
  env: Env,
  app: string,
  keys: SubjectKeys,
  erase: boolean,
  now: number,
): Promise<SubjectPass> {
  const places: [string, string, Record<string, Record<string, unknown>[]>][] = [];
  // The objects first: a click's bucket is named only by the ledger's index of it.
  const { ledger, bucketRows } = await objectRows(env, app, keys, erase);
  places.push(['durable-object', 'AttributionLedger', ledger], ['durable-object', 'ClickBucket', bucketRows]);
  places.push(['d1', '', await d1SubjectRows(env.FUNNEL_DB, app, keys, erase)]);
  const webhooks = { eventIds: keys.installs, installs: keys.webhookInstalls, links: keys.links ?? [] };
  places.push(['d1', '', await webhookSubjectRows(env.FUNNEL_DB, app, webhooks, erase, now)]);
  places.push(['r2', '', await exportSubjectLines(env.EXPORTS, app, keys, erase)]);
  const found: SubjectPass['found'] = {};
  const lines: ReceiptLine[] = [];
  for (const [store, owner, rows] of places) {
    for (const [where, list] of Object.entries(rows)) {
      const place = owner ? `${owner} ${where}` : where;
      found[`${store} ${place}`] = list;
      lines.push({ store, where: place, count: list.length });
    }
  }
  if (erase && (keys.installs.length > 0 || keys.webhookInstalls.length > 0)) {
    // Not rows but a promise kept: the queues' messages of this subject are dropped when consumed.
    lines.push({ store: 'queue', where: 'webhook messages queued or dead-lettered (dropped when consumed)', count: 0 });
  }
  return { found, lines };
}
