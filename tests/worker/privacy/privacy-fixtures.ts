/**
 * A privacy request's subject seeded into every store (docs/privacy.md#requests-erasure-and-access),
 * each under the keyed hashes the product itself writes, and a scan of every store that knows none
 * of the product's erasure code: every D1 table's rows, every table of every ledger shard and of the
 * subject's network bucket, and every line of every export part in R2, searched for the hashes.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { toBase64Url } from '../../../shared/base64url.ts';
import { appSalt } from '../../../worker/apps/app-keys.ts';
import { bucketFor, ledgerFor } from '../../../worker/attribution/ledger.ts';
import { visitorHash } from '../../../worker/attribution/record-click.ts';
import { installKey } from '../../../worker/attribution/resolve-install.ts';
import { deviceHash } from '../../../worker/attribution/test-answers.ts';
import { userHash } from '../../../worker/fraud/self-referral.ts';
import { DEV_ADMIN_TOKEN, DEV_ATTRIBUTION_SALT } from '../../../worker/settings.ts';
import { installHash } from '../../../worker/webhooks/send-facts.ts';
import { APP_ID } from '../../fixtures/fake-app.ts';
import { ORIGIN } from '../helpers.ts';

const SHARDS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A subject: its raw ids, and the keyed hashes every store keeps it under. */
export interface Subject {
  installId: string;
  visitorId: string;
  userId: string;
  hashes: { install: string; webhook: string; device: string; visitor: string; user: string };
  clickId: string;
  bucket: string;
}

const random = (bytes: number): string => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/**
 * The keyed hashes app `app` keeps a person's ids under: each app's salt is its own (apps/app-keys.ts),
 * so one person is another set of hashes in another app.
 */
export async function hashesIn(
  app: string,
  ids: Pick<Subject, 'installId' | 'visitorId' | 'userId'>,
): Promise<Subject['hashes']> {
  const salt = appSalt(DEV_ATTRIBUTION_SALT, app);
  return {
    install: await installKey(salt, APP_ID, ids.installId),
    webhook: await installHash(env, app, APP_ID, ids.installId),
    device: await deviceHash(salt, APP_ID, ids.installId),
    visitor: await visitorHash(salt, ids.visitorId),
    user: await userHash(salt, ids.userId),
  };
}

export async function subjectOf(tag: string): Promise<Subject> {
  const ids = {
    installId: `install-${tag}-${crypto.randomUUID()}`,
    visitorId: `v-${tag}-${crypto.randomUUID()}`,
    userId: `user-${tag}-${crypto.randomUUID()}`,
  };
  return { ...ids, hashes: await hashesIn('default', ids), clickId: random(16), bucket: `net:${random(16)}` };
}

const gzip = (text: string): Promise<ArrayBuffer> =>
  new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();

/** The export line of the subject's install event. */
export const exportLine = (subject: Subject): string =>
  JSON.stringify({
    id: `msg_${subject.hashes.install}`,
    type: 'install',
    timestamp: '2026-01-05T10:00:00.000Z',
    data: { app: APP_ID, install: subject.hashes.webhook, matched: true },
  });

/** Seeds `subject` into the Durable Objects and D1 of the `default` app. */
export async function seed(subject: Subject, now = Date.now()): Promise<void> {
  const { install, webhook, device, visitor, user } = subject.hashes;
  const { clickId, bucket } = subject;
  const clickLedger = ledgerFor(env, 'default', clickId);
  await clickLedger.indexClick(clickId, { bucket, at: now, visitor });
  await clickLedger.claimClick(clickId, install, now, false);
  await clickLedger.noteArm(clickId, { link: 'spring', variant: 'a' }, now);
  const ledger = ledgerFor(env, 'default', install);
  const answer = { matched: false as const, reason: 'none' as const };
  await ledger.remember(install, answer, now, { explanation: { carriers: [], network: null }, test: false });
  await ledger.flag(install, [{ rule: 'too_fast', reason: 'seeded' }], now);
  const tuple = {
    family: 'ios' as const,
    version: '18',
    model: null,
    short: 390,
    long: 844,
    scale: 3,
    tz: 'UTC',
    lang: 'en',
  };
  await bucketFor(env, 'default', bucket).record(
    { ...tuple, clickId, at: now, visitor, address: random(16), token: null },
    now + 3_600_000,
  );
  const db = env.FUNNEL_DB;
  const body = JSON.stringify({ type: 'install', timestamp: new Date(now).toISOString(), data: { install: webhook } });
  const dims = "'c','i','','iOS','','NL','en','',''";
  await db.batch([
    db
      .prepare(
        `INSERT INTO fraud_installs (app, id, at, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, method, network, visitor) VALUES ('default', ?1, ?2, '2026-01-05', ${dims}, 'probabilistic', ?3, ?4)`,
      )
      .bind(install, now, bucket, visitor),
    db
      .prepare("INSERT INTO fraud_flags (app, install, rule, reason, at) VALUES ('default', ?1, 'too_fast', 'x', ?2)")
      .bind(install, now),
    db
      .prepare("INSERT INTO fraud_identities (app, user, kind, value, at) VALUES ('default', ?1, 'install', ?2, ?3)")
      .bind(user, install, now),
    db
      .prepare("INSERT INTO fraud_identities (app, user, kind, value, at) VALUES ('default', ?1, 'visitor', ?2, ?3)")
      .bind(`other-${user}`, visitor, now),
    db
      .prepare(
        "INSERT INTO funnel_install_days (app, day, install, kind, n, cap) VALUES ('default', '2026-01-05', ?1, 'event', 1, 1000)",
      )
      .bind(install),
    db
      .prepare("INSERT INTO funnel_messages (app, id, day) VALUES ('default', ?1, '2026-01-05')")
      .bind(`install:${install}`),
    db
      .prepare(
        "INSERT INTO test_answers (app, at, kind, app_id, platform, device, answer, explanation, repeat) VALUES ('default', ?1, 'install', ?2, 'ios', ?3, '{}', '{}', 0)",
      )
      .bind(now, APP_ID, device),
    db
      .prepare(
        "INSERT INTO test_devices (app, app_id, device, label, created_at) VALUES ('default', ?1, ?2, 'phone', ?3)",
      )
      .bind(APP_ID, device, now),
    db
      .prepare(
        "INSERT INTO webhook_events (app, id, kind, type, day, at, body) VALUES ('default', ?1, 'install', 'install', '2026-01-05', ?2, ?3)",
      )
      .bind(install, now, body),
    db
      .prepare(
        "INSERT INTO webhook_events (app, id, kind, type, day, at, body) VALUES ('default', ?1, 'open', 'open', '2026-01-05', ?2, ?3)",
      )
      .bind(`open-${random(8)}`, now, body.replace('"install",', '"open",')),
    db
      .prepare(
        "INSERT INTO webhook_deliveries (app, endpoint_id, event_id, type, at, status, attempts, updated_at) VALUES ('default', 'ep_seed', ?1, 'install', ?2, 'dead', 8, ?2)",
      )
      .bind(install, now),
    db
      .prepare(
        "INSERT INTO webhook_attempts (app, endpoint_id, event_id, type, attempt, at, status, latency_ms) VALUES ('default', 'ep_seed', ?1, 'install', 1, ?2, 503, 10)",
      )
      .bind(install, now),
  ]);
}

/** Writes one export part holding the lines of `subjects`. */
export async function seedExport(key: string, subjects: readonly Subject[]): Promise<void> {
  await env.EXPORTS.put(key, await gzip(`${subjects.map(exportLine).join('\n')}\n`), {
    customMetadata: { lines: String(subjects.length) },
  });
}

/** How often each of `subject`'s hashes and ids is found, store by store, searching every row and line. */
export async function scan(subject: Subject): Promise<Record<string, number>> {
  const needles = [...Object.values(subject.hashes), subject.clickId];
  const hits: Record<string, number> = {};
  const count = (place: string, text: string) => {
    const n = needles.filter((needle) => text.includes(needle)).length;
    if (n > 0) hits[place] = (hits[place] ?? 0) + n;
  };
  const tables = await env.FUNNEL_DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  for (const { name } of tables.results) {
    const rows = await env.FUNNEL_DB.prepare(`SELECT * FROM ${name}`).all();
    for (const row of rows.results) count(`d1 ${name}`, JSON.stringify(row));
  }
  const dump = (sql: SqlStorage): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {};
    const names = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'",
      )
      .toArray();
    for (const { name } of names) out[name] = sql.exec(`SELECT * FROM ${name}`).toArray();
    return out;
  };
  for (const shard of SHARDS) {
    const tablesOf = await runInDurableObject(ledgerFor(env, 'default', shard), (_, state) => dump(state.storage.sql));
    for (const [name, rows] of Object.entries(tablesOf)) count(`ledger ${name}`, JSON.stringify(rows));
  }
  const bucketTables = await runInDurableObject(bucketFor(env, 'default', subject.bucket), (_, state) =>
    dump(state.storage.sql),
  );
  for (const [name, rows] of Object.entries(bucketTables)) count(`bucket ${name}`, JSON.stringify(rows));
  const listed = await env.EXPORTS.list({ prefix: 'exports/' });
  for (const object of listed.objects) {
    const got = await env.EXPORTS.get(object.key);
    if (!got) continue;
    count(`r2 ${object.key}`, await new Response(got.body.pipeThrough(new DecompressionStream('gzip'))).text());
  }
  return hits;
}

/** A call to the privacy API with the development token. */
export function privacy(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.token ?? DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
}

/** An OpenDSR request body for one identity. */
export function requestBody(
  type: 'erasure' | 'access',
  identity: { type: 'install_id' | 'visitor_id' | 'user_id'; value: string },
  extra: Record<string, unknown> = {},
) {
  return {
    subject_request_type: type,
    subject_identities: [{ identity_type: identity.type, identity_value: identity.value, identity_format: 'raw' }],
    submitted_time: new Date().toISOString(),
    api_version: '0.1',
    ...(identity.type === 'install_id' ? { property_id: APP_ID } : {}),
    ...extra,
  };
}
