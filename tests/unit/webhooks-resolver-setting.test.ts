/** `WEBHOOK_RESOLVER` (docs/webhooks.md#safety): Cloudflare's DNS-over-HTTPS unless set. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESOLVER, settingsOf } from '../../worker/settings.ts';

const envOf = (vars: Record<string, string>) => ({ LANDER_ENV: 'production', ...vars }) as unknown as Env;

describe('the webhook resolver setting', () => {
  it("is Cloudflare's DNS-over-HTTPS by default, and WEBHOOK_RESOLVER when set", () => {
    expect(DEFAULT_RESOLVER).toBe('https://cloudflare-dns.com/dns-query');
    expect(settingsOf(envOf({})).webhookResolver).toBe(DEFAULT_RESOLVER);
    expect(settingsOf(envOf({ WEBHOOK_RESOLVER: '' })).webhookResolver).toBe(DEFAULT_RESOLVER);
    expect(settingsOf(envOf({ WEBHOOK_RESOLVER: 'https://dns.example/dns-query' })).webhookResolver).toBe(
      'https://dns.example/dns-query',
    );
  });
});
