import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { CONFIG_KEY } from '../../shared/config/schema.ts';
import worker from '../../worker/index.ts';
import { UA } from '../fixtures/agents.ts';

export const ORIGIN = 'https://lander.test';

/**
 * The worker's own `fetch` with `bindings` laid over the test environment (another variable, a
 * failing KV), as Cloudflare's fixtures call a handler: with an execution context whose work after
 * the response is awaited before the answer is returned.
 */
export async function fetchWorker(url: string, init: RequestInit = {}, bindings: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url, init), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** A request to the worker inside workerd, as a visitor with `userAgent` would send it. */
export interface GetOptions {
  userAgent?: string;
  headers?: Record<string, string>;
  method?: string;
}

export function get(
  path: string,
  { userAgent = UA.iPhoneSafari, headers = {}, method = 'GET' }: GetOptions = {},
): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers: { 'user-agent': userAgent, ...headers }, redirect: 'manual' }),
  );
}

const HANDOFF_BLOCK = /<script type="application\/json" id="lander-data">(.*?)<\/script>/s;

/** The hand-off data block of a page's HTML as written (escaped JSON), or '' when the page has none. */
export function handoffBlock(html: string): string {
  return HANDOFF_BLOCK.exec(html)?.[1] ?? '';
}

/** The hand-off a page's HTML carries (shared/handoff.ts), parsed; null when it carries none. */
// biome-ignore lint/suspicious/noExplicitAny: tests read any field of the parsed JSON
export function handoffOf(html: string): any {
  return JSON.parse(handoffBlock(html) || 'null');
}

/** Stores `config` (an object, or raw text) as the configuration the worker reads from KV. */
export async function storeConfig(config: unknown): Promise<void> {
  await env.KV.put(CONFIG_KEY, typeof config === 'string' ? config : JSON.stringify(config));
}

/** Removes the stored configuration: the worker falls back to the demo (docs/config.md). */
export async function clearConfig(): Promise<void> {
  await env.KV.delete(CONFIG_KEY);
}
