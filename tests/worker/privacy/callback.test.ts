/**
 * A privacy request's status callbacks (docs/privacy.md#requests-erasure-and-access) through the real
 * worker and its privacy queue, to the receiver on 127.0.0.1 (webhook-receiver.ts), which verifies
 * each with the `standardwebhooks` library under the request's `callback_secret`: OpenDSR's status is
 * sent to every URL once the request completes, signed as webhooks are, and one refused at first is
 * tried again on the webhooks' schedule until delivered.
 */
import { describe, expect, it, vi } from 'vitest';
import { RECEIVER, receiverLog, setMode, setSecret } from '../webhook-fixtures.ts';
import { privacy, requestBody } from './privacy-fixtures.ts';

const keyOf = (): string => `privacy-${crypto.randomUUID().slice(0, 12)}`;

describe("a privacy request's status callbacks", () => {
  it('are delivered on completion to each URL, signed with the callback secret, and retried when refused', async () => {
    const [steady, flaky] = [keyOf(), keyOf()];
    await setMode(steady, 'ok');
    await setMode(flaky, 'fail-1');
    const urls = [`${RECEIVER}/r/${steady}`, `${RECEIVER}/r/${flaky}`];
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody(
        'access',
        { type: 'visitor_id', value: `v-${crypto.randomUUID()}` },
        { status_callback_urls: urls },
      ),
    });
    expect(made.status).toBe(201);
    const answer = await made.json<{
      subject_request_id: string;
      expected_completion_time: string;
      callback_secret: string;
    }>();
    expect(answer.callback_secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    for (const key of [steady, flaky]) await setSecret(key, answer.callback_secret);
    const id = answer.subject_request_id;

    // The flaky URL answers 503 first: the webhooks' first retry comes 5 seconds later.
    await vi.waitFor(
      async () => {
        for (const key of [steady, flaky]) expect((await receiverLog(key)).delivered, key).toHaveLength(1);
      },
      { timeout: 30_000, interval: 200 },
    );
    const status = await (await privacy(`/api/privacy/requests/${id}`)).json<{ request_status: string }>();
    expect(status.request_status).toBe('completed');
    for (const [at, key] of [steady, flaky].entries()) {
      const log = await receiverLog(key);
      expect(log.unverified, key).toEqual([]);
      expect(log.delivered).toEqual([
        {
          subject_request_id: id,
          request_status: 'completed',
          expected_completion_time: answer.expected_completion_time,
          status_callback_url: urls[at],
          results_url: `/api/privacy/requests/${id}/data`,
        },
      ]);
      expect(log.attempts).toEqual({ [`msg_privacy_${id}_completed`]: key === flaky ? 2 : 1 });
    }
  }, 40_000);

  it('are signed with their own request’s secret: a receiver holding another secret refuses them', async () => {
    const key = keyOf();
    await setMode(key, 'ok');
    await setSecret(key, `whsec_${btoa('not the request secret, 32 bytes')}`);
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody(
        'erasure',
        { type: 'user_id', value: `u-${crypto.randomUUID()}` },
        {
          status_callback_urls: [`${RECEIVER}/r/${key}`],
        },
      ),
    });
    expect(made.status).toBe(201);
    await vi.waitFor(async () => expect((await receiverLog(key)).requests).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 200,
    });
    const log = await receiverLog(key);
    expect(log.verified).toBe(0);
    expect(log.unverified).toEqual(['No matching signature found']);
  });

  it('are none for a request without callback URLs: no secret is made', async () => {
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', { type: 'visitor_id', value: `v-${crypto.randomUUID()}` }),
    });
    expect((await made.json<{ callback_secret: string | null }>()).callback_secret).toBeNull();
  });
});
