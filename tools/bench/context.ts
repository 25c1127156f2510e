/** What every benchmark section gets, and what it reports. */
import type { Served } from './serve.ts';

export interface BenchContext {
  /** Origin of the production build served by `workerd serve` (no wrangler proxy). */
  url: string;
  /** The server: its KV control socket, its process id (memory), its logs. */
  server: Served;
  /** Seconds each load measurement runs. */
  duration: number;
  /** Concurrent connections for load measurements. */
  connections: number;
  /** wrk threads. */
  threads: number;
}

export interface BenchRow {
  name: string;
  value: string;
  /** The budget, if any, and whether the figure is within it. */
  budget?: { limit: string; ok: boolean };
}

export interface BenchSection {
  title: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}

/** The static file the page's figures are compared with: a small file every build has, the page's own icon. */
export const STATIC_ASSET = '/logo.png';

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
