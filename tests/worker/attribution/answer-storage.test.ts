/**
 * Where explanations and test answers are kept, and for how long (docs/attribution.md, "What is
 * stored"): the ledger's notes go with their answers after 30 days; test devices' answers in D1 are
 * kept 7 days and at most 500; neither holds an install id or an address.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AttributionLedger } from '../../../worker/attribution/ledger.ts';
import { ledgerFor } from '../../../worker/attribution/ledger.ts';
import {
  keepTestAnswer,
  listTestAnswers,
  MAX_TEST_ANSWERS,
  TEST_ANSWER_DAYS,
  type TestAnswerInput,
} from '../../../worker/attribution/test-answers.ts';
import { DEV_ATTRIBUTION_SALT } from '../../../worker/settings.ts';
import { installBody, PHONES, registerTestDevice } from '../../fixtures/fake-app.ts';
import { appCall, network, newInstallId, send } from '../app-calls.ts';
import { rowsOf } from '../attribution-storage.ts';

const DAY = 86_400_000;
const SHARDS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

const input = (installId: string, app = 'com.pebble.notes'): TestAnswerInput => ({
  kind: 'install',
  app,
  platform: 'ios',
  installId,
  answer: { matched: false, reason: 'none' },
  explanation: { carriers: [], network: { outcome: 'no-network' } },
  repeat: false,
});

describe("the ledger's notes", () => {
  it('hold no install id or address, and go with their answers after 30 days', async () => {
    const installId = newInstallId();
    const address = network(13)(1);
    await registerTestDevice(send, installId);
    await appCall('/api/a/install', { ...installBody(PHONES.iPhone15, installId), test: true }, address);
    let swept = 0;
    for (const stub of SHARDS.map((c) => ledgerFor(env, 'default', c))) {
      const notes = await runInDurableObject(stub, (_: AttributionLedger, state) => {
        const text = JSON.stringify(state.storage.sql.exec('SELECT * FROM notes').toArray());
        expect(text).not.toContain(installId);
        expect(text).not.toContain(address);
        state.storage.sql.exec('UPDATE answers SET keep_until = 0');
        state.storage.sql.exec('UPDATE notes SET keep_until = 0');
        return state.storage.sql.exec('SELECT COUNT(*) AS n FROM notes').one().n as number;
      });
      if (notes === 0) continue;
      await runDurableObjectAlarm(stub);
      swept += notes;
      expect(await rowsOf(stub, 'notes')).toEqual([]);
    }
    expect(swept).toBeGreaterThan(0);
  });
});

describe("test devices' answers in D1", () => {
  it(`are forgotten after ${TEST_ANSWER_DAYS} days`, async () => {
    const app = 'com.pebble.old';
    const now = Date.now();
    await keepTestAnswer(env.FUNNEL_DB, 'default', DEV_ATTRIBUTION_SALT, input('old-install-1', app), now - 8 * DAY);
    await keepTestAnswer(env.FUNNEL_DB, 'default', DEV_ATTRIBUTION_SALT, input('old-install-2', app), now - 6 * DAY);
    expect(await listTestAnswers(env.FUNNEL_DB, 'default', { limit: 10, app })).toHaveLength(2);
    await keepTestAnswer(env.FUNNEL_DB, 'default', DEV_ATTRIBUTION_SALT, input('new-install-1', app), now);
    const kept = await listTestAnswers(env.FUNNEL_DB, 'default', { limit: 10, app });
    expect(kept.map((row) => Date.parse(row.at))).toEqual([now, now - 6 * DAY]);
  });

  it(`are at most ${MAX_TEST_ANSWERS}, the oldest going first, and hold no install id`, async () => {
    const now = Date.now();
    const statements = Array.from({ length: MAX_TEST_ANSWERS + 5 }, (_, i) =>
      env.FUNNEL_DB.prepare(
        `INSERT INTO test_answers (at, kind, app_id, platform, device, answer, explanation, repeat)
          VALUES (?, 'install', 'com.pebble.bulk', 'ios', ?, '{}', '{}', 0)`,
      ).bind(now - 1000 + i, `bulk-${i}`),
    );
    await env.FUNNEL_DB.batch(statements);
    await keepTestAnswer(env.FUNNEL_DB, 'default', DEV_ATTRIBUTION_SALT, input('install-bounded-1'), now);
    const { results } = await env.FUNNEL_DB.prepare('SELECT * FROM test_answers ORDER BY id').all<
      Record<string, unknown>
    >();
    expect(results).toHaveLength(MAX_TEST_ANSWERS);
    expect(results.at(-1)?.app_id).toBe('com.pebble.notes');
    expect(results[0]?.device).not.toBe('bulk-0');
    expect(JSON.stringify(results)).not.toContain('install-bounded-1');
  });
});
