/**
 * The Rate Limiting binding for the bench's workerd (docs/benchmarks.md, "A crowd behind one
 * address"): the worker's `env.<LIMITER>.limit({ key })` is an RPC call to this entrypoint, which
 * counts as the local emulation does (miniflare's rate limiter): windows of `PERIOD` seconds aligned
 * to the clock, a call counted only when it is let through, `{ success: false }` once `LIMIT` calls of
 * a key were let through in the window. One service per binding, each with its wrangler.toml limit.
 * Types only in this file: it is transpiled on its own into dist/bench.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';

interface LimiterEnv {
  LIMIT: number;
  PERIOD: number;
}

// The window the counts are of, and the counts: a new window forgets the last one's, so the map
// holds one window's keys at most.
let window = -1;
const counts = new Map<string, number>();

export class Limiter extends WorkerEntrypoint<LimiterEnv> {
  limit({ key }: { key: string }): { success: boolean } {
    const now = Math.floor(Date.now() / (this.env.PERIOD * 1000));
    if (now !== window) {
      window = now;
      counts.clear();
    }
    const count = counts.get(key) ?? 0;
    if (count >= this.env.LIMIT) return { success: false };
    counts.set(key, count + 1);
    return { success: true };
  }
}

export default {
  fetch: (): Response => new Response('A rate limiter: bound to the worker, not served', { status: 404 }),
};
