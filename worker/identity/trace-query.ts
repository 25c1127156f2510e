/**
 * The plain parameters of a trace call (channel, inviter, … — docs/identity.md). The browser sends
 * the page's campaign as query parameters (shared/campaign.ts `campaignQuery`): the plain ones and the
 * `d` token, which the route reads apart; here it is held to the page's own rules for plain
 * parameters (`isAcceptableParam`, `QUERY_LIMITS`), since anyone can call the endpoint, and values with control characters are
 * left out of the log line as well. What does not fit is dropped and only counted.
 */
import { isAcceptableParam, QUERY_LIMITS } from '../campaign/query-data.ts';

const CONTROL = /\p{Cc}/u;

export interface TraceQuery {
  /** The kept parameters; the first of repeated names wins. */
  data: Record<string, string>;
  /** How many parameters were left out. */
  dropped: number;
}

/** The parameters of a trace call that fit the limits, and how many did not. */
export function traceQuery(params: URLSearchParams): TraceQuery {
  const kept = new Map<string, string>();
  let dropped = 0;
  for (const [key, value] of params) {
    // The campaign token is read on its own: its fields are signed, these are not.
    if (key === 'd') continue;
    const fits =
      kept.size < QUERY_LIMITS.maxParams && isAcceptableParam(key, value) && !kept.has(key) && !CONTROL.test(value);
    if (fits) kept.set(key, value);
    else dropped += 1;
  }
  return { data: Object.fromEntries(kept), dropped };
}
