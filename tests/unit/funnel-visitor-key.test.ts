import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_DIMENSIONS } from '../../worker/funnel/events.ts';
import { messageOf } from '../../worker/funnel/record-event.ts';
import { visitorHash } from '../../worker/funnel/visitor-key.ts';
import { DEV_FUNNEL_SALT, secretOf } from '../../worker/settings.ts';

const funnelSalt = (env: { LANDER_ENV: string; FUNNEL_SALT?: string }) => secretOf(env, 'FUNNEL_SALT');

const SALT = 'test-salt';
const NET = { address: '203.0.113.7', agent: 'Mozilla/5.0 (iPhone)' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the visitor hash', () => {
  it('is the same for one visitor within a day', async () => {
    expect(await visitorHash(SALT, '2026-11-20', NET)).toBe(await visitorHash(SALT, '2026-11-20', { ...NET }));
  });

  it('changes from one day to the next', async () => {
    expect(await visitorHash(SALT, '2026-11-20', NET)).not.toBe(await visitorHash(SALT, '2026-11-21', NET));
  });

  it('depends on the key, so no one without it can recompute it', async () => {
    expect(await visitorHash(SALT, '2026-11-20', NET)).not.toBe(await visitorHash('other-salt', '2026-11-20', NET));
  });

  it('tells apart addresses and agents', async () => {
    const hashes = await Promise.all([
      visitorHash(SALT, '2026-11-20', NET),
      visitorHash(SALT, '2026-11-20', { ...NET, address: '203.0.113.8' }),
      visitorHash(SALT, '2026-11-20', { ...NET, agent: 'Mozilla/5.0 (Android)' }),
    ]);
    expect(new Set(hashes).size).toBe(3);
  });

  it('is 128 bits in URL-safe base64, holding neither the id nor the address', async () => {
    const hash = await visitorHash(SALT, '2026-11-20', NET);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(hash).not.toContain('203');
  });
});

describe('the visitor hash key', () => {
  it('falls back to the development key in development', () => {
    expect(funnelSalt({ LANDER_ENV: 'development' })).toBe(DEV_FUNNEL_SALT);
  });

  it('is FUNNEL_SALT when set', () => {
    expect(funnelSalt({ LANDER_ENV: 'production', FUNNEL_SALT: 'prod-salt' })).toBe('prod-salt');
  });

  it('is absent in production without a key of its own, which is logged', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(funnelSalt({ LANDER_ENV: 'production', FUNNEL_SALT: DEV_FUNNEL_SALT })).toBeUndefined();
    expect(funnelSalt({ LANDER_ENV: 'production' })).toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe('the queue message', () => {
  const env = (bindings: Partial<Env>) => ({ LANDER_ENV: 'development', ...bindings }) as Env;
  const view = { type: 'view', page: 'landing' } as const;

  it('carries the day’s hash of the visitor, never the address or agent', async () => {
    const message = await messageOf(
      env({}),
      { event: view, dims: NO_DIMENSIONS, visitor: NET },
      Date.UTC(2026, 10, 20, 23),
    );
    expect(message.day).toBe('2026-11-20');
    expect(message.visitor).toBe(await visitorHash(DEV_FUNNEL_SALT, '2026-11-20', NET));
    expect(JSON.stringify(message)).not.toMatch(/203\.0\.113|iPhone/);
  });

  it('carries no visitor in production without a key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const message = await messageOf(env({ LANDER_ENV: 'production' }), {
      event: view,
      dims: NO_DIMENSIONS,
      visitor: NET,
    });
    expect(message.visitor).toBeUndefined();
  });

  it('gets a new id per event', async () => {
    const [a, b] = await Promise.all([
      messageOf(env({}), { event: view, dims: NO_DIMENSIONS }),
      messageOf(env({}), { event: view, dims: NO_DIMENSIONS }),
    ]);
    expect(a.id).not.toBe(b.id);
  });
});
