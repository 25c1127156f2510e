/**
 * Standard Webhooks signing (docs/webhooks.md#signing), checked with the `standardwebhooks` library a
 * receiver would use, never with our own code: a signature verifies, a changed body or id does not.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSecret, signatureHeaders } from '../../worker/webhooks/signing.ts';

describe('signing', () => {
  it('makes secrets whsec_ and 24 random bytes in base64', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newSecret()).not.toBe(secret);
  });

  it('signs so that standardwebhooks verifies, and refuses a changed body or id', async () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'install', timestamp: '2026-11-26T10:00:00.000Z', data: { matched: false } });
    const headers = await signatureHeaders(secret, 'msg_abc', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const receiver = new Webhook(secret);
    expect(receiver.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => receiver.verify(body.replace('false', 'true'), headers)).toThrow();
    expect(() => receiver.verify(body, { ...headers, 'webhook-id': 'msg_abd' })).toThrow();
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  it('signs with the new and the old secret during a rotation: v1,<new> v1,<old>, each verifying alone', async () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = '{"type":"test"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const both = await signatureHeaders(current, 'msg_rot', timestamp, body, [previous]);
    const [first, second, extra] = (both['webhook-signature'] ?? '').split(' ');
    expect(extra).toBeUndefined();
    expect(first).toBe((await signatureHeaders(current, 'msg_rot', timestamp, body))['webhook-signature']);
    expect(second).toBe((await signatureHeaders(previous, 'msg_rot', timestamp, body))['webhook-signature']);
    expect(new Webhook(current).verify(body, both)).toEqual({ type: 'test' });
    expect(new Webhook(previous).verify(body, both)).toEqual({ type: 'test' });
    expect(() => new Webhook(newSecret()).verify(body, both)).toThrow();
  });

  it('is refused by a receiver when the timestamp is older than its tolerance', async () => {
    const secret = newSecret();
    const headers = await signatureHeaders(secret, 'msg_old', Math.floor(Date.now() / 1000) - 3600, '{}');
    expect(() => new Webhook(secret).verify('{}', headers)).toThrow(/too old/i);
  });
});
