/** The generated `workerd serve` config (real workerd runs it in serve.test.ts). */
import { describe, expect, it } from 'vitest';
import { capnpText, workerdConfig } from '../bench/workerd-config.ts';

const input = {
  workerModules: [
    { name: 'index.js', embed: '../worker/index.js', type: 'esModule' as const },
    { name: 'chunk.wasm', embed: '../worker/chunk.wasm', type: 'wasm' as const },
  ],
  compatibilityDate: '2026-10-01',
  compatibilityFlags: ['nodejs_compat'],
  vars: { LANDER_ENV: 'production', LIMITS: { max: 3 } },
  clientDir: '/srv/dist/client',
  frontModule: 'front.js',
  kvModule: 'kv.js',
  peerModule: 'peer.js',
  floorModule: 'floor.js',
  cacheModule: 'cache.js',
  filesJson: 'files.json',
  seedJson: 'kv-seed.json',
  durableObjectDir: '/srv/dist/bench/durable-objects',
};

describe('workerd config', () => {
  it('escapes text literals: quotes, backslashes, control and non-ASCII characters', () => {
    expect(capnpText('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(capnpText('é\n')).toBe('"\\xc3\\xa9\\x0a"');
  });

  it('embeds the bundle modules, main module first, with their types', () => {
    const config = workerdConfig(input);
    expect(config).toMatch(
      /modules = \[\n\s+\(name = "index\.js", esModule = embed "\.\.\/worker\/index\.js"\),\n\s+\(name = "chunk\.wasm", wasm = embed/,
    );
  });

  it('binds string vars as text, other vars as JSON, KV to the KV service and ASSETS to the front', () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "LANDER_ENV", text = "production")');
    expect(config).toContain('(name = "LIMITS", json = "{\\"max\\":3}")');
    expect(config).toContain('(name = "KV", kvNamespace = "kv")');
    expect(config).toContain('(name = "ASSETS", service = (name = "front", entrypoint = "assets"))');
  });

  it('listens on loopback only, on ports the OS chooses, with the front on the HTTP socket', () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "http", address = "127.0.0.1:0", http = (), service = "front")');
    expect(config).toContain('service = (name = "kv", entrypoint = "control")');
    expect(config).toContain('(name = "disk", disk = (path = "/srv/dist/client"))');
    expect(config).not.toMatch(/\*:|0\.0\.0\.0/);
  });

  it('puts the HTTP socket on the port asked for, the KV control socket still on one the OS chooses', () => {
    const config = workerdConfig({ ...input, port: 8787 });
    expect(config).toContain('(name = "http", address = "127.0.0.1:8787", http = (), service = "front")');
    expect(config).toContain('(name = "kv-control", address = "127.0.0.1:0"');
  });

  it('serves the peer on its own loopback socket behind a copy of the front with the same files', () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "peer", address = "127.0.0.1:0", http = (), service = "peer-front")');
    const peerFront = config.slice(config.indexOf('const peerFront'), config.indexOf('const peer :'));
    expect(peerFront).toContain('esModule = embed "front.js"');
    expect(peerFront).toContain('(name = "WORKER", service = "peer")');
    expect(peerFront).toContain('(name = "FILES", json = embed "files.json")');
    expect(config).toContain('(name = "peer.js", esModule = embed "peer.js")');
  });

  it('binds the Durable Objects with SQLite storage in their own writable directory, and the queue to a sink', () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "CLICK_BUCKETS", durableObjectNamespace = "ClickBucket")');
    expect(config).toContain(
      '(className = "AttributionLedger", uniqueKey = "lander-AttributionLedger", enableSql = true)',
    );
    expect(config).toContain('(name = "do-disk", disk = (path = "/srv/dist/bench/durable-objects", writable = true))');
    expect(config).toContain('(name = "FUNNEL_QUEUE", queue = "queue-sink")');
    // Every producer the worker sends to: a missing one throws on each send.
    const all = workerdConfig({ ...input, queueProducers: ['FUNNEL_QUEUE', 'WEBHOOK_QUEUE', 'CONVERSION_QUEUE'] });
    expect(all).toContain('(name = "WEBHOOK_QUEUE", queue = "queue-sink")');
    expect(all).toContain('(name = "CONVERSION_QUEUE", queue = "queue-sink")');
  });

  it('serves the floor and a second isolate behind their own fronts, both isolates on one location cache', () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "floor", address = "127.0.0.1:0", http = (), service = "floor-front")');
    expect(config).toContain('(name = "second-isolate", address = "127.0.0.1:0", http = (), service = "front-b")');
    const floorFront = config.slice(config.indexOf('const floorFront'));
    expect(floorFront).toContain('(name = "WORKER", service = "floor")');
    expect(config).toContain('(name = "LANDER", service = "lander")');
    expect(config.match(/cacheApiOutbound = "cache"/g)).toHaveLength(3);
    expect(config).toContain('(name = "cache.js", esModule = embed "cache.js")');
    // The second isolate uses the first one's Durable Objects rather than namespaces of its own.
    const second = config.slice(config.indexOf('const landerB'), config.indexOf('const cache :'));
    expect(second).toContain(
      '(name = "CLICK_BUCKETS", durableObjectNamespace = (className = "ClickBucket", serviceName = "lander"))',
    );
    expect(second).not.toContain('durableObjectNamespaces');
  });

  it("serves the floor of a first visitor on its own socket: the floor's `miss` entrypoint, on the location cache", () => {
    const config = workerdConfig(input);
    expect(config).toContain('(name = "floor-miss", address = "127.0.0.1:0", http = (), service = "floor-miss-front")');
    const front = config.slice(config.indexOf('const floorMissFront'), config.indexOf('const frontB'));
    expect(front).toContain('(name = "WORKER", service = (name = "floor", entrypoint = "miss"))');
    const floor = config.slice(config.indexOf('const floor :'), config.indexOf('const floorFront'));
    expect(floor).toContain('cacheApiOutbound = "cache"');
    // The kept page's floor is still the default entrypoint.
    const floorFront = config.slice(config.indexOf('const floorFront'), config.indexOf('const floorMissFront'));
    expect(floorFront).toContain('(name = "WORKER", service = "floor")');
  });
});
