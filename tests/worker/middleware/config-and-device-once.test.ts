/**
 * The configuration and the device are read where they are used, once (worker/index.ts,
 * docs/architecture.md#the-request-path-of-): every route that reads the configuration reads its KV
 * key once per request (the development vars keep no copy, `CONFIG_CACHE_SECONDS` 0), and a call that
 * reads neither never touches the key; the agent is parsed only for `/api/device`, `/api/trace`,
 * `/api/a/*` and the pages, once per request however many handlers read the device.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEY } from '../../../shared/config/schema.ts';
import { detectedRequests } from '../../../worker/device/device-detection.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

/** The test environment's KV, counting the reads of the configuration's key. */
function countingKv(): { kv: KVNamespace; configReads: () => number } {
  let reads = 0;
  const kv = new Proxy(env.KV, {
    get(target, property) {
      if (property === 'get') {
        return (key: string, ...rest: unknown[]) => {
          if (key === CONFIG_KEY) reads += 1;
          return (target.get as (...args: unknown[]) => unknown).call(target, key, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { kv, configReads: () => reads };
}

interface Call {
  name: string;
  method?: string;
  path: string;
  admin?: boolean;
  body?: unknown;
  /** How many times the call reads the configuration's key. */
  configReads: 0 | 1;
  /** Whether the call detects the device. */
  detects: boolean;
}

const CALLS: Call[] = [
  { name: 'the health check', path: '/api/health', configReads: 0, detects: false },
  { name: 'the device', path: '/api/device', configReads: 0, detects: true },
  { name: 'the trace', path: '/api/trace', configReads: 0, detects: true },
  { name: 'the build manifest', path: '/assets/builds/latest.json', configReads: 0, detects: false },
  { name: 'the losses, signed in', path: '/api/losses', admin: true, configReads: 0, detects: false },
  { name: 'the webhooks, signed in', path: '/api/webhooks', admin: true, configReads: 0, detects: false },
  { name: 'the stats, signed in', path: '/api/stats', admin: true, configReads: 1, detects: false },
  { name: 'the fraud report, signed in', path: '/api/fraud', admin: true, configReads: 1, detects: false },
  { name: 'the links, signed in', path: '/api/links', admin: true, configReads: 1, detects: false },
  { name: 'the audit log, signed in', path: '/api/audit', admin: true, configReads: 0, detects: false },
  {
    name: 'a test device registered',
    method: 'POST',
    path: '/api/test-devices',
    admin: true,
    body: {},
    configReads: 1,
    detects: false,
  },
  { name: 'a tap', method: 'POST', path: '/api/a/click', body: {}, configReads: 1, detects: true },
  { name: 'the download page', path: '/', configReads: 1, detects: true },
  { name: 'the campaign page', path: '/landing?channel=once', configReads: 1, detects: true },
  { name: 'an app-link file', path: '/.well-known/assetlinks.json', configReads: 1, detects: false },
];

/** `call` through the worker with a KV that counts: what it read and detected. */
async function run(call: Call): Promise<{ status: number; configReads: number; detected: number }> {
  const { kv, configReads } = countingKv();
  const headers: Record<string, string> = {
    'user-agent': `Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1 ${crypto.randomUUID()}`,
    'cf-connecting-ip': '198.51.100.77',
  };
  if (call.admin) headers.authorization = `Bearer ${DEV_ADMIN_TOKEN}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const before = detectedRequests();
  const init = {
    method: call.method ?? 'GET',
    headers,
    body: call.body === undefined ? null : JSON.stringify(call.body),
  };
  const res = await fetchWorker(`${ORIGIN}${call.path}`, init, { KV: kv });
  await res.arrayBuffer();
  return { status: res.status, configReads: configReads(), detected: detectedRequests() - before };
}

describe.each(CALLS)('$name', (call) => {
  it(`reads the configuration ${call.configReads === 1 ? 'once' : 'never'}`, async () => {
    const { status, configReads } = await run(call);
    expect(status).toBeLessThan(500);
    expect(configReads).toBe(call.configReads);
  });

  it(call.detects ? 'detects the device once' : 'never parses the agent', async () => {
    const { detected } = await run(call);
    expect(detected).toBe(call.detects ? 1 : 0);
  });
});
