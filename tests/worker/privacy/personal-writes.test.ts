/**
 * Nothing personal reaches KV or the logs (docs/privacy.md#data-map), at run time: the real worker is
 * driven through its main flows — a page view, the trace service, a tap, an install, an open, an app
 * event, identify, a configuration written through the admin API — from one address, one agent, one
 * visitor id, one install id and one user id, with every KV write and every console line recorded;
 * none of those raw values is in them. A planted log line of one is found, so the scan is not idle.
 * The static side (every `console.*` and KV write of worker/) is tests/unit/personal-writes.test.ts.
 */
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import demo from '../../../worker/config/demo.json';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { APP_ID, clickBody, installBody, newClickId, PHONES } from '../../fixtures/fake-app.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

const RAW = {
  address: '198.51.100.173',
  agent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 PrivacyProbe/7.3',
  visitorId: '6a1f7c2e-93b4-4d58-8e0a-5c7d2b9f4e31',
  installId: 'install-privacy-probe-4f9e2a71',
  userId: 'user-privacy-probe-0c83d5e6',
};

/** Every KV write: its key, value and options as text. */
let kvWrites: string[] = [];
/** Every console line, its arguments as text. */
let lines: string[] = [];

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.message}\n${value.stack ?? ''}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** `kv` whose `put` is recorded, then done. */
function recordingKv(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get(target, property) {
      if (property === 'put') {
        return (key: string, value: unknown, options?: unknown) => {
          kvWrites.push([key, text(value), text(options)].join('\n'));
          return target.put(key, value as string, options as KVNamespacePutOptions);
        };
      }
      const member = Reflect.get(target, property);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}

beforeEach(() => {
  kvWrites = [];
  lines = [];
  for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(text).join(' '));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

const bindings = () => ({ KV: recordingKv(env.KV) });
const personHeaders = { 'cf-connecting-ip': RAW.address, 'user-agent': RAW.agent, cookie: `user_id=${RAW.visitorId}` };
const post = (path: string, body: unknown) =>
  fetchWorker(
    `${ORIGIN}${path}`,
    { method: 'POST', body: JSON.stringify(body), headers: { ...personHeaders, 'content-type': 'application/json' } },
    bindings(),
  );

/** The main flows, each as the person makes it. */
async function drive(): Promise<void> {
  await fetchWorker(`${ORIGIN}/`, { headers: personHeaders }, bindings());
  await fetchWorker(`${ORIGIN}/landing?channel=spring`, { headers: personHeaders }, bindings());
  await fetchWorker(`${ORIGIN}/api/trace?channel=spring`, { headers: personHeaders }, bindings());
  await post('/api/a/click', clickBody(PHONES.iPhone15, { clickId: newClickId(), visitorId: RAW.visitorId }));
  await post('/api/a/install', installBody(PHONES.iPhone15, RAW.installId));
  await post('/api/a/open', { app: APP_ID, installId: RAW.installId, carrier: 'not-a-carrier' });
  await post('/api/a/event', { app: APP_ID, installId: RAW.installId, name: 'signup' });
  await post('/api/a/identify', { app: APP_ID, installId: RAW.installId, userId: RAW.userId });
  // An operator's write to KV, from the same address and agent.
  await fetchWorker(
    `${ORIGIN}/api/config`,
    {
      method: 'PUT',
      body: JSON.stringify({ ...demo, revision: 'privacy-probe' }),
      headers: { ...personHeaders, authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    },
    bindings(),
  );
}

/** Each raw value found, with where: `address in console: …`. */
function found(): string[] {
  const places = [...kvWrites.map((write) => ['KV', write]), ...lines.map((line) => ['console', line])];
  return Object.entries(RAW).flatMap(([name, value]) =>
    places
      .filter(([, written]) => written?.includes(value))
      .map(([where, written]) => `${name} in ${where}: ${written}`),
  );
}

describe('the main flows write nothing personal to KV or the logs', () => {
  it('no address, agent, visitor, install or user id in any KV write or console line', async () => {
    await drive();
    // The flows did write: the configuration to KV, and log lines (the trace call's at least).
    expect(kvWrites.some((write) => write.includes('privacy-probe'))).toBe(true);
    expect(lines.some((line) => line.includes('"event":"trace"'))).toBe(true);
    expect(found()).toEqual([]);
  });

  it('finds a planted log line of a raw value: the scan is not idle', async () => {
    await drive();
    console.error('Install failed for', RAW.installId, 'from', RAW.address);
    expect(found()).toEqual([
      expect.stringMatching(/^address in console: Install failed for/),
      expect.stringMatching(/^installId in console: Install failed for/),
    ]);
  });
});
