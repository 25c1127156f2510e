/**
 * Erasure and access through the real worker and its queues (docs/privacy.md#requests-erasure-and-access):
 * a subject seeded into every store is erased by `POST /api/privacy/requests`, the privacy queue's
 * consumer and the signed receipt; a scan of every store then finds nothing of it, and another
 * subject's data is untouched. Queued and dead-lettered webhook messages of it are dropped.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { PrivacyStatus, Receipt } from '../../../shared/privacy.ts';
import { canonicalJson } from '../../../worker/audit/chain.ts';
import { consumeDeadLetters } from '../../../worker/webhooks/dead-letters.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { privacy, requestBody, type Subject, scan, seed, seedExport, subjectOf } from './privacy-fixtures.ts';

/** Waits until request `id` is completed; answers its status. */
async function completed(id: string): Promise<PrivacyStatus> {
  let status: PrivacyStatus | undefined;
  await vi.waitFor(
    async () => {
      status = await (await privacy(`/api/privacy/requests/${id}`)).json<PrivacyStatus>();
      if (status.request_status !== 'completed') throw new Error(`still ${status.request_status}`);
    },
    { timeout: 20_000, interval: 50 },
  );
  if (!status) throw new Error('no status');
  return status;
}

async function verifies(receipt: Receipt, x: string): Promise<boolean> {
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, 'Ed25519', false, ['verify']);
  const signature = Uint8Array.from(atob(receipt.signature.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
    c.charCodeAt(0),
  );
  return crypto.subtle.verify('Ed25519', key, signature, new TextEncoder().encode(canonicalJson(receipt.receipt)));
}

const installEvent = (subject: Subject) =>
  eventMessage('install', { install: subject.hashes.webhook } as never, Date.now(), subject.hashes.install);

describe('an erasure request', () => {
  it('removes a subject from every store through the worker and its queue, and leaves another subject whole', async () => {
    const [gone, kept] = [await subjectOf('gone'), await subjectOf('kept')];
    await seed(gone);
    await seed(kept);
    await seedExport('exports/install/date=2026-01-05/part-0.ndjson.gz', [gone, kept]);
    await seedExport('exports/open/date=2026-01-05/part-0.ndjson.gz', [gone]);
    const keptBefore = await scan(kept);
    expect(Object.keys(await scan(gone)).length).toBeGreaterThan(15);

    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('erasure', { type: 'install_id', value: gone.installId }),
    });
    expect(made.status).toBe(201);
    const answer = await made.json<{
      subject_request_id: string;
      expected_completion_time: string;
      received_time: string;
    }>();
    expect(Date.parse(answer.expected_completion_time) - Date.parse(answer.received_time)).toBe(86_400_000);
    const done = await completed(answer.subject_request_id);
    // The install's visitor and user are other identities: erase them as well.
    for (const [type, value] of [
      ['visitor_id', gone.visitorId],
      ['user_id', gone.userId],
    ] as const) {
      const res = await privacy('/api/privacy/requests', {
        method: 'POST',
        body: requestBody('erasure', { type, value }),
      });
      expect(res.status).toBe(201);
      await completed((await res.json<{ subject_request_id: string }>()).subject_request_id);
    }

    // The ids of the subject's own rows; the one visitor row seeded under another user holds only its visitor.
    expect(await scan(gone)).toEqual({});
    expect(await scan(kept)).toEqual(keptBefore);

    const receipt = done.receipt;
    if (!receipt) throw new Error('no receipt');
    const key = await (await privacy('/api/privacy/receipt-key')).json<{ x: string }>();
    expect(await verifies(receipt, key.x)).toBe(true);
    const places = receipt.receipt.lines.map((line) => `${line.store} ${line.where}`);
    expect(places).toEqual(
      expect.arrayContaining([
        'durable-object AttributionLedger answers',
        'durable-object AttributionLedger click_claims',
        'durable-object ClickBucket clicks',
        'd1 fraud_installs',
        'd1 test_devices',
        'd1 webhook_events',
        'r2 exports/install/date=2026-01-05/part-0.ndjson.gz',
        'r2 exports/open/date=2026-01-05/part-0.ndjson.gz',
      ]),
    );
    expect(receipt.receipt.lines.find((line) => line.where === 'webhook_events')?.count).toBe(2);
    // A changed receipt no longer verifies.
    const forged = { ...receipt, receipt: { ...receipt.receipt, lines: receipt.receipt.lines.slice(1) } };
    expect(await verifies(forged, key.x)).toBe(false);
    // An erasure done keeps no keyed hash of its subject, only their digest.
    const row = await env.FUNNEL_DB.prepare('SELECT subject_keys FROM privacy_requests WHERE id = ?1')
      .bind(answer.subject_request_id)
      .first<{ subject_keys: string | null }>();
    expect(row?.subject_keys).toBeNull();

    // A message of the subject still in the queue is dropped when consumed; another's is recorded.
    await env.WEBHOOK_QUEUE.send(installEvent(gone));
    await env.WEBHOOK_QUEUE.send(installEvent(kept));
    const seen = (subject: Subject) =>
      env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?1')
        .bind(subject.hashes.install)
        .first<{ n: number }>();
    await vi.waitFor(async () => expect((await seen(kept))?.n).toBe(1), { timeout: 10_000, interval: 50 });
    // And a dead letter of it: neither recorded nor marked.
    const batch = createMessageBatch('lander-dev-webhooks-dead', [
      { id: 'd-gone', timestamp: new Date(), attempts: 1, body: installEvent(gone) },
    ]);
    await consumeDeadLetters(batch, env);
    await getQueueResult(batch, createExecutionContext());
    expect((await seen(gone))?.n).toBe(0);
    expect(await scan(gone)).toEqual({});
  });
});

describe('an access request', () => {
  it('answers everything kept about the subject as JSON, and nothing of another', async () => {
    const [asked, other] = [await subjectOf('asked'), await subjectOf('other')];
    await seed(asked);
    await seed(other);
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', { type: 'install_id', value: asked.installId }),
    });
    const { subject_request_id: id } = await made.json<{ subject_request_id: string }>();
    const status = await completed(id);
    expect(status.results_url).toBe(`/api/privacy/requests/${id}/data`);
    const data = await (await privacy(`/api/privacy/requests/${id}/data`)).json<{ data: Record<string, unknown[]> }>();
    const text = JSON.stringify(data);
    expect(text).toContain(asked.hashes.install);
    expect(text).toContain(asked.hashes.webhook);
    expect(text).not.toContain(other.hashes.install);
    expect(Object.keys(data.data)).toEqual(
      expect.arrayContaining(['durable-object AttributionLedger answers', 'd1 fraud_installs', 'd1 webhook_events']),
    );
    // Access removes nothing.
    expect(Object.keys(await scan(asked)).length).toBeGreaterThan(10);
  });
});

describe('the privacy API', () => {
  it('refuses bad input with 400 naming the field, and another scope with 403', async () => {
    const cases: [unknown, string][] = [
      [
        { ...requestBody('erasure', { type: 'visitor_id', value: 'v' }), subject_request_type: 'delete' },
        'subject_request_type: ',
      ],
      [
        { ...requestBody('erasure', { type: 'visitor_id', value: 'v' }), subject_identities: [] },
        'subject_identities: ',
      ],
      [requestBody('erasure', { type: 'visitor_id', value: 'has space' }), 'subject_identities.0.identity_value: '],
      [{ ...requestBody('erasure', { type: 'install_id', value: 'i' }), property_id: undefined }, 'property_id: '],
      [
        { ...requestBody('erasure', { type: 'visitor_id', value: 'v' }), submitted_time: 'yesterday' },
        'submitted_time: ',
      ],
      [
        { ...requestBody('erasure', { type: 'visitor_id', value: 'v' }), status_callback_urls: ['http://10.0.0.1/x'] },
        'status_callback_urls.0: ',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await privacy('/api/privacy/requests', { method: 'POST', body });
      expect(res.status, field).toBe(400);
      expect((await res.json<{ error: string }>()).error).toContain(field);
    }
    const unknown = await privacy(`/api/privacy/requests/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
  });

  it("keeps one app from asking about, or reading, another app's requests", async () => {
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', { type: 'visitor_id', value: `v-${crypto.randomUUID()}` }),
    });
    const { subject_request_id: id } = await made.json<{ subject_request_id: string }>();
    const elsewhere = await privacy(`/@pebble/api/privacy/requests/${id}`);
    expect([404, 401, 403]).toContain(elsewhere.status);
  });
});
