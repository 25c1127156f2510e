/**
 * The Cap'n Proto config `workerd serve` runs for the benchmark (docs/benchmarks.md): one HTTP socket
 * on the front worker (build files from a native `disk` service, everything else to the production
 * worker), the worker with wrangler.toml's vars and compatibility settings, its `KV` binding on the
 * in-memory KV service and its `ASSETS` binding on the front's `assets` entrypoint, and a second socket
 * that steers the KV service, and a third on the peers' plain Hono + React worker behind its own copy
 * of the front (same module, same files), so all three kinds of request cross the same hop. Three more
 * sockets, each behind its own copy of the front: the floor (a worker answering the kept page's bytes
 * and headers and nothing else, tools/bench/workers/floor.ts), the floor of a first visitor (its
 * `miss` entrypoint: a lookup in the location's cache, the page, and the page kept there) and a second
 * isolate of the production worker (`lander-b`), which shares the location's cache with the first:
 * every Cache API call goes to one in-memory cache service (tools/bench/workers/cache.ts), as the
 * isolates of one location share Cloudflare's (decision 008). The sockets listen on loopback, on ports
 * the OS picks unless the HTTP socket is given one (`npm run bench:serve`).
 */

export type ModuleType = 'esModule' | 'commonJsModule' | 'text' | 'data' | 'wasm' | 'json';

export interface WorkerModule {
  /** The name other modules import it by (its path inside the bundle directory). */
  name: string;
  /** Where the file is, relative to the config file (capnp `embed` resolves from there). */
  embed: string;
  type: ModuleType;
}

export interface WorkerdConfigInput {
  /** The production bundle's modules, main module first. */
  workerModules: WorkerModule[];
  compatibilityDate: string;
  compatibilityFlags: string[];
  /** wrangler.toml `vars`: strings become text bindings, anything else JSON. */
  vars: Record<string, unknown>;
  /** Absolute path of the client build (dist/client). */
  clientDir: string;
  /** The transpiled front and KV workers, the file list and the KV seed, relative to the config. */
  frontModule: string;
  kvModule: string;
  /** The peers' plain Hono + React worker (tools/bench/workers/peer.tsx), bundled, on its own socket. */
  peerModule: string;
  /** The floor worker and the location's cache service (tools/bench/workers/), transpiled. */
  floorModule: string;
  cacheModule: string;
  filesJson: string;
  seedJson: string;
  /** An empty directory for the Durable Objects' SQLite files (absolute). */
  durableObjectDir: string;
  /** Listen address of both sockets; port 0 lets the OS choose (reported on workerd's control fd). */
  host?: string;
  /** The HTTP socket's port (`npm run bench:serve`); default 0, the OS chooses. The KV control socket's is always 0. */
  port?: number;
  /**
   * The rate limiter service (tools/bench/workers/ratelimit.ts), transpiled, and the bindings it
   * serves with their wrangler.toml limits; without them the worker runs unlimited.
   */
  ratelimitModule?: string;
  ratelimits?: RateLimitBinding[];
  /**
   * wrangler.toml's queue producer bindings, each sent to the sink: a send that threw on a missing
   * binding would be counted and logged as a loss on every request. Default `FUNNEL_QUEUE` alone.
   */
  queueProducers?: string[];
}

/** A wrangler.toml `[[ratelimits]]` binding: its name and `simple` limit. */
export interface RateLimitBinding {
  name: string;
  limit: number;
  period: number;
}

/** The service name of a rate limit binding's counter. */
const limiterService = (name: string): string => `ratelimit-${name}`;

/** One counting service per binding: `limit()` reaches its `Limiter` entrypoint over RPC. */
function limiterWorkers(input: WorkerdConfigInput, compat: string): { services: string[]; workers: string } {
  const bindings = input.ratelimitModule ? (input.ratelimits ?? []) : [];
  const services = bindings.map(({ name }, i) => `(name = ${capnpText(limiterService(name))}, worker = .limiter${i})`);
  const workers = bindings
    .map(
      ({ limit, period }, i) => `
const limiter${i} :Workerd.Worker = (
  modules = [(name = "ratelimit.js", esModule = embed ${capnpText(input.ratelimitModule ?? '')})],
  ${compat},
  bindings = [(name = "LIMIT", json = "${limit}"), (name = "PERIOD", json = "${period}")],
);`,
    )
    .join('\n');
  return { services, workers };
}

/** wrangler.toml's Durable Object bindings: binding name, class name. */
export const DURABLE_OBJECTS = [
  ['CLICK_BUCKETS', 'ClickBucket'],
  ['ATTRIBUTION_LEDGER', 'AttributionLedger'],
] as const;

/** Socket names, as workerd reports them on its control descriptor. */
export const SOCKETS = {
  http: 'http',
  kvControl: 'kv-control',
  peer: 'peer',
  floor: 'floor',
  floorMiss: 'floor-miss',
  second: 'second-isolate',
} as const;

/**
 * The funnel queue's sink: workerd posts each send (`/message`, `/batch`) to it and reads the answer
 * as a queue broker's (miniflare's broker answers the same): the queue's metrics as JSON. Anything
 * else is a failed send, which the worker retries and counts as lost (docs/reliability.md), work a
 * page view does not do on Cloudflare. The messages are read and dropped.
 */
export const QUEUE_SINK = `const metrics = { backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: 0 };
export default {
  async fetch(request) {
    await request.arrayBuffer();
    return Response.json({ metadata: { metrics } });
  },
};
`;

/** A Cap'n Proto text literal: printable ASCII kept, everything else as `\xNN` UTF-8 bytes. */
export function capnpText(value: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (byte >= 0x20 && byte < 0x7f) out += char;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

const list = (items: string[], indent: string): string =>
  items.length === 0 ? '[]' : `[\n${items.map((item) => `${indent}  ${item},`).join('\n')}\n${indent}]`;

function varBinding(name: string, value: unknown): string {
  return typeof value === 'string'
    ? `(name = ${capnpText(name)}, text = ${capnpText(value)})`
    : `(name = ${capnpText(name)}, json = ${capnpText(JSON.stringify(value))})`;
}

/**
 * A copy of the front before `worker` (a service designator: a quoted name, or a name and entrypoint),
 * so its requests cross the hop Lander's and the files' do.
 */
function frontOf(name: string, worker: string, input: WorkerdConfigInput, compat: string): string {
  return `
const ${name} :Workerd.Worker = (
  modules = [(name = "front.js", esModule = embed ${capnpText(input.frontModule)})],
  ${compat},
  bindings = [
    (name = "DISK", service = "disk"),
    (name = "WORKER", service = ${worker}),
    (name = "FILES", json = embed ${capnpText(input.filesJson)}),
  ],
);`;
}

/** The config file's text. */
export function workerdConfig(input: WorkerdConfigInput): string {
  const host = input.host ?? '127.0.0.1';
  const compat = `compatibilityDate = ${capnpText(input.compatibilityDate)}`;
  const flags = `compatibilityFlags = [${input.compatibilityFlags.map(capnpText).join(', ')}]`;
  const modules = input.workerModules.map(
    (m) => `(name = ${capnpText(m.name)}, ${m.type} = embed ${capnpText(m.embed)})`,
  );
  const workerBindings = [
    ...Object.entries(input.vars).map(([name, value]) => varBinding(name, value)),
    '(name = "KV", kvNamespace = "kv")',
    '(name = "ASSETS", service = (name = "front", entrypoint = "assets"))',
    // Attribution's Durable Objects (docs/attribution.md), SQLite files in a directory of the run.
    ...DURABLE_OBJECTS.map(([binding, className]) => `(name = "${binding}", durableObjectNamespace = "${className}")`),
    // The queues (the funnel's, the webhooks', …): workerd posts each send to this service, which takes and drops it.
    ...(input.queueProducers ?? ['FUNNEL_QUEUE']).map((name) => `(name = ${capnpText(name)}, queue = "queue-sink")`),
    ...(input.ratelimitModule ? (input.ratelimits ?? []) : []).map(
      ({ name }) =>
        `(name = ${capnpText(name)}, service = (name = ${capnpText(limiterService(name))}, entrypoint = "Limiter"))`,
    ),
  ];
  const limiters = limiterWorkers(input, compat);
  // The second isolate reaches the first one's Durable Objects: one namespace per class, as on Cloudflare.
  const secondBindings = workerBindings.map((binding) =>
    binding.replace(
      /durableObjectNamespace = "(\w+)"/,
      'durableObjectNamespace = (className = "$1", serviceName = "lander")',
    ),
  );
  const namespaces = DURABLE_OBJECTS.map(
    ([, className]) => `(className = "${className}", uniqueKey = "lander-${className}", enableSql = true)`,
  );
  return `# Generated by tools/bench/serve.ts for \`npm run bench\`; rewritten on every run.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "front", worker = .front),
    (name = "lander", worker = .lander),
    (name = "kv", worker = .kv),
    (name = "peer", worker = .peer),
    (name = "peer-front", worker = .peerFront),
    (name = "queue-sink", worker = .queueSink),
    (name = "floor", worker = .floor),
    (name = "floor-front", worker = .floorFront),
    (name = "floor-miss-front", worker = .floorMissFront),
    (name = "lander-b", worker = .landerB),
    (name = "front-b", worker = .frontB),
    (name = "cache", worker = .cache),${limiters.services.map((service) => `\n    ${service},`).join('')}
    (name = "do-disk", disk = (path = ${capnpText(input.durableObjectDir)}, writable = true)),
    (name = "disk", disk = (path = ${capnpText(input.clientDir)})),
  ],
  sockets = [
    (name = "${SOCKETS.http}", address = ${capnpText(`${host}:${input.port ?? 0}`)}, http = (), service = "front"),
    (name = "${SOCKETS.kvControl}", address = ${capnpText(`${host}:0`)}, http = (), service = (name = "kv", entrypoint = "control")),
    (name = "${SOCKETS.peer}", address = ${capnpText(`${host}:0`)}, http = (), service = "peer-front"),
    (name = "${SOCKETS.floor}", address = ${capnpText(`${host}:0`)}, http = (), service = "floor-front"),
    (name = "${SOCKETS.floorMiss}", address = ${capnpText(`${host}:0`)}, http = (), service = "floor-miss-front"),
    (name = "${SOCKETS.second}", address = ${capnpText(`${host}:0`)}, http = (), service = "front-b"),
  ],
);

const lander :Workerd.Worker = (
  modules = ${list(modules, '  ')},
  ${compat},
  ${flags},
  bindings = ${list(workerBindings, '  ')},
  durableObjectNamespaces = ${list(namespaces, '  ')},
  durableObjectStorage = (localDisk = "do-disk"),
  cacheApiOutbound = "cache",
);

# A second isolate of the same worker: its own module state, the first one's storage and cache.
const landerB :Workerd.Worker = (
  modules = ${list(modules, '  ')},
  ${compat},
  ${flags},
  bindings = ${list(secondBindings, '  ')},
  cacheApiOutbound = "cache",
);

const cache :Workerd.Worker = (
  modules = [(name = "cache.js", esModule = embed ${capnpText(input.cacheModule)})],
  ${compat},
);
${limiters.workers}

const floor :Workerd.Worker = (
  modules = [(name = "floor.js", esModule = embed ${capnpText(input.floorModule)})],
  ${compat},
  bindings = [(name = "LANDER", service = "lander")],
  # Its first-visitor entrypoint looks pages up and keeps them in the location's cache, as Lander does.
  cacheApiOutbound = "cache",
);
${frontOf('floorFront', '"floor"', input, compat)}
${frontOf('floorMissFront', '(name = "floor", entrypoint = "miss")', input, compat)}
${frontOf('frontB', '"lander-b"', input, compat)}

const queueSink :Workerd.Worker = (
  modules = [(name = "sink.js", esModule = ${capnpText(QUEUE_SINK)})],
  ${compat},
);

const front :Workerd.Worker = (
  modules = [(name = "front.js", esModule = embed ${capnpText(input.frontModule)})],
  ${compat},
  bindings = [
    (name = "DISK", service = "disk"),
    (name = "WORKER", service = "lander"),
    (name = "FILES", json = embed ${capnpText(input.filesJson)}),
  ],
);

# The same front before the peer, so the peer's requests cross the hop Lander's and the files' do.
const peerFront :Workerd.Worker = (
  modules = [(name = "front.js", esModule = embed ${capnpText(input.frontModule)})],
  ${compat},
  bindings = [
    (name = "DISK", service = "disk"),
    (name = "WORKER", service = "peer"),
    (name = "FILES", json = embed ${capnpText(input.filesJson)}),
  ],
);

const peer :Workerd.Worker = (
  modules = [(name = "peer.js", esModule = embed ${capnpText(input.peerModule)})],
  ${compat},
);

const kv :Workerd.Worker = (
  modules = [(name = "kv.js", esModule = embed ${capnpText(input.kvModule)})],
  ${compat},
  bindings = [(name = "SEED", json = embed ${capnpText(input.seedJson)})],
);
`;
}
