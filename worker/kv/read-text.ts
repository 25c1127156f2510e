/**
 * One KV read with a time budget (docs/config.md, docs/builds.md: KV trouble never breaks an answer). Workers KV
 * can throw, answer null or be slow; a read that has not answered within `timeoutMs` is given up,
 * so the caller answers from its fallback in time instead of waiting on the store.
 */

import { withinBudget } from '../lib/within-budget.ts';

/** The longest a request waits for one KV read before it answers from its fallback. */
export const KV_READ_TIMEOUT_MS = 500;

export type KvText =
  | { kind: 'value'; text: string }
  | { kind: 'absent' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'timeout' };

/** Reads `key` as text within `timeoutMs`; never throws. */
export async function readKvText(
  kv: Pick<KVNamespace, 'get'>,
  key: string,
  timeoutMs = KV_READ_TIMEOUT_MS,
): Promise<KvText> {
  const read = (async (): Promise<KvText> => {
    const text = await kv.get(key, 'text');
    return text === null ? { kind: 'absent' } : { kind: 'value', text };
  })().catch((error: unknown): KvText => ({ kind: 'failed', error }));
  return withinBudget(read, timeoutMs, () => ({ kind: 'timeout' }));
}
