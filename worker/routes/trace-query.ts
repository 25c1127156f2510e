/**
 * The visit's query data on a trace call (channel, inviter, … — PRODUCT.md §5.2, §6), bounded so a
 * visitor cannot make the log line large or odd: a few parameters with short plain names and short
 * values without control characters. Everything else is dropped and only counted.
 */

export const TRACE_QUERY_LIMITS = { params: 16, keyLength: 32, valueLength: 256 } as const;

const KEY = /^[A-Za-z0-9_.-]+$/;
const CONTROL = /\p{Cc}/u;

export interface TraceQuery {
  /** The kept parameters; the first of repeated names wins. */
  data: Record<string, string>;
  /** How many parameters were left out. */
  dropped: number;
}

export function traceQuery(params: URLSearchParams): TraceQuery {
  const kept = new Map<string, string>();
  let dropped = 0;
  for (const [key, value] of params) {
    const fits =
      kept.size < TRACE_QUERY_LIMITS.params &&
      key.length <= TRACE_QUERY_LIMITS.keyLength &&
      KEY.test(key) &&
      !kept.has(key) &&
      value.length <= TRACE_QUERY_LIMITS.valueLength &&
      !CONTROL.test(value);
    if (fits) kept.set(key, value);
    else dropped += 1;
  }
  return { data: Object.fromEntries(kept), dropped };
}
