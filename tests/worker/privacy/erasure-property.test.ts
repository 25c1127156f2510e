/**
 * Erasure never reaches past its subject (docs/privacy.md#requests-erasure-and-access): over random
 * sets of subjects seeded into D1's tables, erasing a random few through the product's own pass
 * (D1 and the webhooks' tables, the real engine) removes exactly their rows and leaves every other
 * subject's rows as they were.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { d1SubjectRows } from '../../../worker/privacy/d1-rows.ts';
import type { SubjectKeys } from '../../../worker/privacy/subject.ts';
import { webhookSubjectRows } from '../../../worker/webhooks/erased.ts';

const keysOf = (tag: string): SubjectKeys => ({
  installs: [`K${tag}`],
  webhookInstalls: [`W${tag}`],
  testDevices: [`T${tag}`],
  visitors: [`H${tag}`],
  users: [`U${tag}`],
});

async function seed(app: string, tag: string): Promise<void> {
  const db = env.FUNNEL_DB;
  const body = JSON.stringify({ type: 'install', data: { install: `W${tag}` } });
  await db.batch([
    db
      .prepare(
        "INSERT INTO fraud_installs (app, id, at, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, method, network, visitor) VALUES (?1, ?2, 0, 'd', '', '', '', '', '', '', '', '', '', 'm', '', ?3)",
      )
      .bind(app, `K${tag}`, `H${tag}`),
    db
      .prepare("INSERT INTO fraud_identities (app, user, kind, value, at) VALUES (?1, ?2, 'install', ?3, 0)")
      .bind(app, `U${tag}`, `K${tag}`),
    db
      .prepare("INSERT INTO test_devices (app, app_id, device, label, created_at) VALUES (?1, 'a', ?2, 'l', 0)")
      .bind(app, `T${tag}`),
    db
      .prepare(
        "INSERT INTO webhook_events (app, id, kind, type, day, at, body) VALUES (?1, ?2, 'install', 'install', 'd', 0, ?3)",
      )
      .bind(app, `K${tag}`, body),
  ]);
}

/** Every row of the property's tables in `app`, as text. */
async function everything(app: string): Promise<string[]> {
  const rows: string[] = [];
  for (const table of ['fraud_installs', 'fraud_identities', 'test_devices', 'webhook_events']) {
    const found = await env.FUNNEL_DB.prepare(`SELECT * FROM ${table} WHERE app = ?1`).bind(app).all();
    rows.push(
      ...found.results.map(
        (row) => `${table} ${JSON.stringify({ ...row, id: table === 'test_devices' ? 0 : row.id })}`,
      ),
    );
  }
  return rows.sort();
}

describe('erasure of random subjects', () => {
  it("never removes another subject's rows", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,6}$/), { minLength: 2, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        async (written, picks) => {
          const app = `p${crypto.randomUUID().slice(0, 8)}`;
          // Event ids are unique across apps: each run's subjects are its own.
          const tags = written.map((tag) => `${app}_${tag}`);
          for (const tag of tags) await seed(app, tag);
          const erased = new Set(picks.map((pick) => tags[pick % tags.length] as string));
          const kept = await everything(app);
          for (const tag of erased) {
            const keys = keysOf(tag);
            await d1SubjectRows(env.FUNNEL_DB, app, keys, true);
            await webhookSubjectRows(
              env.FUNNEL_DB,
              app,
              { eventIds: keys.installs, installs: keys.webhookInstalls },
              true,
              0,
            );
          }
          const left = await everything(app);
          const ofErased = (row: string) =>
            [...erased].some((tag) => row.includes(`K${tag}"`) || row.includes(`T${tag}"`));
          expect(left).toEqual(kept.filter((row) => !ofErased(row)));
        },
      ),
      { numRuns: 25 },
    );
  });
});
