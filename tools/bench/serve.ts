/**
 * Serves the production build with `workerd serve` and a generated config (docs/benchmarks.md): no
 * wrangler dev proxy (it caps every page near 1,000 requests/s on a 2-core machine) and no miniflare
 * asset pipeline in front (it capped a static file near 550 requests/s), so the figures are workerd's.
 * The binary is the one wrangler depends on, so benchmarks, `npm start` and tests share one runtime.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { transformWithOxc } from 'vite';
import { unstable_readConfig } from 'wrangler';
import { ROOT } from '../../scripts/lib/run.ts';
import { type ModuleType, SOCKETS, type WorkerModule, workerdConfig } from './workerd-config.ts';
import type { KvFault, KvSeedEntry, KvStats } from './workers/kv.ts';

export interface ServeOptions {
  /** wrangler.toml environment whose vars the worker gets: `production` (default) or `''` (top level). */
  env?: string;
  /** The bundle `wrangler deploy --dry-run --outdir` wrote (default dist/worker). */
  workerDir?: string;
  /** The client build (default dist/client). */
  clientDir?: string;
  /** Where the config and its generated files go (default dist/bench). */
  outDir?: string;
  /** The KV namespace's initial entries. */
  kv?: KvSeedEntry[];
  /** Vars set over wrangler.toml's (e.g. to measure with `DIAGNOSTICS` on). */
  vars?: Record<string, unknown>;
  /**
   * Opens workerd's inspector (Chrome DevTools Protocol) on this loopback port; 0 lets the OS choose.
   * Off by default: an attached inspector changes what is measured.
   */
  inspectorPort?: number;
  /** The front socket's loopback port (`npm run bench:serve`); default 0, the OS chooses. */
  port?: number;
  /**
   * Binds wrangler.toml's Rate Limiting bindings to a counter that counts as the local emulation does
   * (tools/bench/workers/ratelimit.ts). Off by default: the other sections measure the calls' work,
   * and the soak repeats each client's calls past its budget.
   */
  rateLimits?: boolean;
}

/** A wrangler.toml `[[ratelimits]]` entry as wrangler reads it. */
interface RateLimitConfig {
  name: string;
  simple: { limit: number; period: number };
}

export interface KvState {
  fault: KvFault;
  stats: KvStats;
  keys: number;
}

export interface Served {
  /** Origin of the front socket, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Origin of the KV service's control socket. */
  kvControlUrl: string;
  /** Origin of the peers' plain Hono + React page (tools/bench/workers/peer.tsx), same workerd. */
  peerUrl: string;
  /** Origin of the floor: the kept page's bytes and headers and nothing else (tools/bench/workers/floor.ts). */
  floorUrl: string;
  /** Origin of the floor of a first visitor: the floor with a lookup and a write in the location's cache. */
  floorMissUrl: string;
  /** Origin of a second isolate of the production worker, sharing the first one's cache (decision 008). */
  secondUrl: string;
  /** The workerd process, for memory readings. */
  pid: number;
  /** Origin of the inspector (`GET /json/list` lists the workers), with `inspectorPort` only. */
  inspectorUrl?: string;
  configPath: string;
  workerdVersion: string;
  setKvFault(fault: KvFault): Promise<KvState>;
  kvState(): Promise<KvState>;
  /** The last lines workerd wrote to stdout and stderr. */
  logs(): string;
  stop(): Promise<void>;
}

interface WorkerdPackage {
  default: string;
  version: string;
}

/** workerd as wrangler resolves it: same binary, same version as `wrangler dev` and the tests. */
export function workerdBinary(): WorkerdPackage {
  const fromWrangler = createRequire(fileURLToPath(import.meta.resolve('wrangler')));
  return fromWrangler('workerd') as WorkerdPackage;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const MODULE_TYPES: Record<string, ModuleType> = {
  js: 'esModule',
  mjs: 'esModule',
  cjs: 'commonJsModule',
  wasm: 'wasm',
  txt: 'text',
  html: 'text',
  sql: 'text',
  bin: 'data',
};

/** The bundle's modules (source maps and wrangler's README left out), main module first. */
export function bundleModules(workerDir: string, configDir: string, main = 'index.js'): WorkerModule[] {
  const modules = filesUnder(workerDir).flatMap((path) => {
    const name = relative(workerDir, path).split(sep).join('/');
    const type = MODULE_TYPES[/\.(\w+)$/.exec(name)?.[1] ?? ''];
    if (!type) return [];
    return [{ name, embed: relative(configDir, path).split(sep).join('/'), type }];
  });
  if (!modules.some((m) => m.name === main)) throw new Error(`${workerDir} has no ${main}; build the worker first`);
  return modules.sort((a, b) => Number(b.name === main) - Number(a.name === main));
}

/** Paths the front serves from the client build: what workerd's disk service exposes (no dotfiles). */
export function servableFiles(clientDir: string): string[] {
  return filesUnder(clientDir)
    .map((path) => `/${relative(clientDir, path).split(sep).join('/')}`)
    .filter((path) => !path.split('/').some((segment) => segment.startsWith('.')))
    .sort();
}

/**
 * The peer imports hono and react, so unlike the helpers it is bundled with its packages, for workers,
 * minified and with React's production build, as such a site would deploy it.
 */
async function bundlePeer(source: string, target: string): Promise<void> {
  await build({
    entryPoints: [source],
    outfile: target,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
}

async function transpile(source: string, target: string): Promise<void> {
  const { code } = await transformWithOxc(readFileSync(source, 'utf8'), source, { lang: 'ts' });
  writeFileSync(target, code);
}

/** What `CF_VERSION_METADATA` holds on Cloudflare, for the bundle in `workerDir`: its id is the bundle's SHA-256. */
export function versionMetadata(workerDir: string): { id: string; tag: string; timestamp: string } {
  const hash = createHash('sha256');
  for (const path of filesUnder(workerDir).sort()) hash.update(readFileSync(path));
  return { id: hash.digest('hex'), tag: '', timestamp: '' };
}

/** Writes dist/bench: the config, the helper workers, the peer, the file list and the KV seed. */
export async function writeServerFiles(options: ServeOptions = {}): Promise<string> {
  const { env = 'production', kv = [] } = options;
  const workerDir = options.workerDir ?? join(ROOT, 'dist/worker');
  const clientDir = options.clientDir ?? join(ROOT, 'dist/client');
  const outDir = options.outDir ?? join(ROOT, 'dist/bench');
  mkdirSync(outDir, { recursive: true });

  const wrangler = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env: env || undefined });
  const workers = join(dirname(fileURLToPath(import.meta.url)), 'workers');
  await transpile(join(workers, 'front.ts'), join(outDir, 'front.js'));
  await transpile(join(workers, 'kv.ts'), join(outDir, 'kv.js'));
  await transpile(join(workers, 'floor.ts'), join(outDir, 'floor.js'));
  await transpile(join(workers, 'cache.ts'), join(outDir, 'cache.js'));
  if (options.rateLimits) await transpile(join(workers, 'ratelimit.ts'), join(outDir, 'ratelimit.js'));
  await bundlePeer(join(workers, 'peer.tsx'), join(outDir, 'peer.js'));
  writeFileSync(join(outDir, 'files.json'), JSON.stringify(servableFiles(clientDir)));
  writeFileSync(join(outDir, 'kv-seed.json'), JSON.stringify(kv));

  // Each run starts with no Durable Object data.
  const durableObjectDir = join(outDir, 'durable-objects');
  rmSync(durableObjectDir, { recursive: true, force: true });
  mkdirSync(durableObjectDir, { recursive: true });
  const configPath = join(outDir, 'workerd.capnp');
  writeFileSync(
    configPath,
    workerdConfig({
      workerModules: bundleModules(workerDir, outDir),
      compatibilityDate: wrangler.compatibility_date ?? '2026-10-01',
      compatibilityFlags: wrangler.compatibility_flags,
      // Cloudflare binds the deploy's version (wrangler.toml `version_metadata`): here, the bundle's digest.
      vars: { ...wrangler.vars, CF_VERSION_METADATA: versionMetadata(workerDir), ...options.vars },
      clientDir,
      frontModule: 'front.js',
      kvModule: 'kv.js',
      peerModule: 'peer.js',
      floorModule: 'floor.js',
      cacheModule: 'cache.js',
      filesJson: 'files.json',
      seedJson: 'kv-seed.json',
      durableObjectDir,
      port: options.port,
      queueProducers: (wrangler.queues.producers ?? []).map((producer: { binding: string }) => producer.binding),
      ...(options.rateLimits
        ? {
            ratelimitModule: 'ratelimit.js',
            ratelimits: (wrangler.ratelimits as RateLimitConfig[]).map(({ name, simple }) => ({ name, ...simple })),
          }
        : {}),
    }),
  );
  return configPath;
}

/** Keeps the last lines a stream wrote (workerd must never block on a full pipe). */
function tail(stream: Readable | null, lines: string[], max = 200): void {
  stream?.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    if (lines.length > max) lines.splice(0, lines.length - max);
  });
}

/** The name `listening` reports the inspector's port under (workerd's `listen-inspector` event). */
const INSPECTOR = 'inspector';

/** Resolves with each socket's port once workerd reports it on its control descriptor. */
function listening(child: ChildProcess, names: string[], logs: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const ports: Record<string, number> = {};
    let pending = '';
    const timer = setTimeout(() => fail(new Error('workerd did not start within 30 s')), 30_000);
    function fail(error: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${logs.join('\n')}`));
    }
    child.once('exit', (code, signal) => fail(new Error(`workerd exited (${code ?? signal}) before listening`)));
    (child.stdio[3] as Readable | null)?.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as { event?: string; socket?: string; port?: number };
        if (event.event === 'listen' && event.socket && event.port) ports[event.socket] = event.port;
        if (event.event === 'listen-inspector' && event.port) ports[INSPECTOR] = event.port;
      }
      if (names.every((name) => ports[name])) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(ports);
      }
    });
  });
}

async function control(url: string, path: string, init?: RequestInit): Promise<KvState> {
  const response = await fetch(`${url}${path}`, init);
  if (!response.ok) throw new Error(`KV control ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as KvState;
}

/** Generates the config and starts `workerd serve` on loopback; `stop()` ends it. */
export async function serveProduction(options: ServeOptions = {}): Promise<Served> {
  const configPath = await writeServerFiles(options);
  const workerd = workerdBinary();
  const { inspectorPort } = options;
  const inspectorArgs = inspectorPort === undefined ? [] : [`--inspector-addr=127.0.0.1:${inspectorPort}`];
  const child = spawn(workerd.default, ['serve', configPath, '--control-fd=3', ...inspectorArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  tail(child.stdout, logs);
  tail(child.stderr, logs);
  // A benchmark interrupted half-way must not leave a server behind.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const sockets: string[] = [
    SOCKETS.http,
    SOCKETS.kvControl,
    SOCKETS.peer,
    SOCKETS.floor,
    SOCKETS.floorMiss,
    SOCKETS.second,
    ...(inspectorArgs.length ? [INSPECTOR] : []),
  ];
  const ports = await listening(child, sockets, logs);
  const kvControlUrl = `http://127.0.0.1:${ports[SOCKETS.kvControl]}`;
  return {
    url: `http://127.0.0.1:${ports[SOCKETS.http]}`,
    kvControlUrl,
    peerUrl: `http://127.0.0.1:${ports[SOCKETS.peer]}`,
    floorUrl: `http://127.0.0.1:${ports[SOCKETS.floor]}`,
    floorMissUrl: `http://127.0.0.1:${ports[SOCKETS.floorMiss]}`,
    secondUrl: `http://127.0.0.1:${ports[SOCKETS.second]}`,
    pid: child.pid ?? 0,
    ...(inspectorArgs.length ? { inspectorUrl: `http://127.0.0.1:${ports[INSPECTOR]}` } : {}),
    configPath,
    workerdVersion: workerd.version,
    setKvFault: (fault) => control(kvControlUrl, '/fault', { method: 'PUT', body: JSON.stringify(fault) }),
    kvState: () => control(kvControlUrl, '/'),
    logs: () => logs.join('\n'),
    stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
