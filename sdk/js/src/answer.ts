/** Reading the server's answer (docs/attribution.md): the contract's fields only (a test device's `explain` too), or null for anything else. */
import type { Answer, DeferredLink, Explain } from './types.ts';

export const OFFLINE: Answer = { matched: false, reason: 'offline' };
export const REJECTED: Answer = { matched: false, reason: 'rejected' };

const METHODS = ['clipboard', 'referrer', 'apk', 'harmony', 'probabilistic'];
const REASONS = ['none', 'ambiguous', 'expired', 'unavailable', 'claimed'] as const;
type Reason = (typeof REASONS)[number];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer in a 200 body, or null when the body is not one (a captive portal, another shape). */
export function readAnswer(body: unknown): Answer | null {
  if (!isObject(body)) return null;
  // A test device's answer carries why (docs/attribution.md): kept as the server gave it.
  const explain = isObject(body.explain) ? { explain: body.explain as unknown as Explain } : {};
  if (body.matched === false) {
    const reason = body.reason;
    return REASONS.includes(reason as Reason) ? { matched: false, reason: reason as Reason, ...explain } : null;
  }
  const { method, confidence, data, clickId, clickedAt } = body;
  if (body.matched !== true || typeof method !== 'string' || !METHODS.includes(method)) return null;
  if (typeof confidence !== 'number' || typeof clickId !== 'string' || !isObject(data)) return null;
  if (!Object.values(data).every((value) => typeof value === 'string')) return null;
  if (clickedAt !== null && typeof clickedAt !== 'string') return null;
  return {
    matched: true,
    method: method as DeferredLink['method'],
    confidence,
    data: data as Record<string, string>,
    clickId,
    clickedAt,
    ...explain,
  };
}

/** The deferred link a matched answer leaves. */
export function linkOf(answer: Answer): DeferredLink | null {
  if (!answer.matched) return null;
  const { clickId, method, data, clickedAt } = answer;
  return { clickId, method, data, clickedAt };
}
