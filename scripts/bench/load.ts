/**
 * HTTP load on loopback, bounded in time: wrk when installed (C, light on the 2 cores), else
 * autocannon. Returns requests/s, p50, p99, non-2xx/3xx answers and socket errors.
 */
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx3xx: number;
  socketErrors: number;
}

export interface LoadOptions {
  url: string;
  duration: number;
  connections: number;
  headers?: Record<string, string>;
  /** A wrk Lua script (e.g. to vary requests); with autocannon, `requests` is used instead. */
  wrkScript?: string;
  requests?: autocannon.Request[];
}

const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

function ms(text: string): number {
  const match = /([\d.]+)(us|ms|s)/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function runWrk({ url, duration, connections, headers = {}, wrkScript }: LoadOptions): LoadResult {
  const args = ['--latency', '-t', '2', '-c', String(connections), '-d', `${duration}s`];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (wrkScript) args.push('-s', wrkScript);
  args.push(url);
  const out = spawnSync('wrk', args, { encoding: 'utf8' }).stdout;
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    tool: 'wrk',
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50: ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? ''),
    p99: ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

async function runAutocannon({ url, duration, connections, headers = {}, requests }: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ url, duration, connections, headers, requests });
  return {
    tool: 'autocannon',
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx3xx: result.non2xx,
    socketErrors: result.errors + result.timeouts,
  };
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return hasWrk ? Promise.resolve(runWrk(options)) : runAutocannon(options);
}

export function describeLoad(r: LoadResult): string {
  return `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx/3xx ${r.non2xx3xx}, socket errors ${r.socketErrors} (${r.tool})`;
}
