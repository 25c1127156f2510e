/**
 * HTTP load on loopback, bounded in time: wrk when installed (C, light on a 2-core machine), else
 * autocannon. Returns requests/s, p50, p99, non-2xx/3xx answers and socket errors.
 */
import { spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import {
  type KeptCounts,
  parseKeptCounts,
  parsePageKeys,
  parseStatusClasses,
  type StatusClasses,
} from './wrk-scripts.ts';

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requestsPerSecond: number;
  /** Requests completed. */
  requests: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  non2xx3xx: number;
  socketErrors: number;
  /** Answers by status class, when counted (a wrk script from wrk-scripts.ts, or autocannon). */
  statusClasses?: StatusClasses;
  /** Pages kept and rendered (the page's `Server-Timing`), when a wrk script counted them. */
  kept?: KeptCounts;
  /** Distinct page-cache keys the pages named (`Server-Timing: …, page;desc=<id>`), when a wrk script counted them. */
  pageKeys?: number;
}

export interface LoadOptions {
  url: string;
  /** Seconds. */
  duration: number;
  connections: number;
  headers?: Record<string, string>;
  /** wrk threads (default 1: the other core is workerd's, which serves from one thread). */
  threads?: number;
  /** Seconds before a request counts as a timeout (socket error); default 5. */
  timeout?: number;
  /** A wrk Lua script (e.g. to vary requests); with autocannon, `requests` is used instead. */
  wrkScript?: string;
  requests?: autocannon.Request[];
}

/** The load generator `load()` uses, and its version. */
export function loadTool(): { tool: LoadResult['tool']; version: string } {
  const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (wrk.error === undefined) {
    return { tool: 'wrk', version: /^wrk (\S+)/.exec(`${wrk.stdout}${wrk.stderr}`)?.[1] ?? 'unknown' };
  }
  return { tool: 'autocannon', version: 'npm' };
}

const TOOL = loadTool().tool;

/** A wrk duration (`812.00us`, `1.20ms`, `2.00s`, `1.50m`) in milliseconds. */
export function wrkMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return value * scale;
}

/** Reads the figures out of `wrk --latency` output. */
export function parseWrk(out: string): LoadResult {
  const requestsPerSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  if (Number.isNaN(requestsPerSecond)) throw new Error(`wrk printed no Requests/sec:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const statusClasses = parseStatusClasses(out);
  const kept = parseKeptCounts(out);
  const pageKeys = parsePageKeys(out);
  return {
    tool: 'wrk',
    requestsPerSecond,
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    p50: wrkMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: wrkMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    ...(statusClasses && { statusClasses }),
    ...(kept && { kept }),
    ...(pageKeys !== undefined && { pageKeys }),
  };
}

/** wrk runs asynchronously: a blocked event loop would stop draining workerd's log pipes. */
function runWrk(options: LoadOptions): Promise<LoadResult> {
  const { url, duration, connections, headers = {}, threads = 1, timeout = 5, wrkScript } = options;
  const args = ['--latency', '-t', String(threads), '-c', String(connections), '-d', `${duration}s`];
  args.push('--timeout', `${timeout}s`);
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (wrkScript) args.push('-s', wrkScript);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(parseWrk(out));
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const { url, duration, connections, headers = {}, timeout = 5, requests } = options;
  const statusClasses: StatusClasses = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, duration, connections, headers, timeout, requests }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, statusCode: number) => {
      const key = `${Math.floor(statusCode / 100)}xx`;
      if (key in statusClasses) statusClasses[key as keyof StatusClasses]++;
      else statusClasses.other++;
    });
  });
  return {
    statusClasses,
    tool: 'autocannon',
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx3xx: result.non2xx,
    socketErrors: result.errors + result.timeouts,
  };
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return TOOL === 'wrk' ? runWrk(options) : runAutocannon(options);
}

export function describeLoad(r: LoadResult): string {
  const classes = r.statusClasses ? ` (4xx ${r.statusClasses['4xx']}, 5xx ${r.statusClasses['5xx']})` : '';
  return `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx/3xx ${r.non2xx3xx}${classes}, socket errors ${r.socketErrors}`;
}
