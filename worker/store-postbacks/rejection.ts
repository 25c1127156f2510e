/**
 * Why a postback is refused (docs/store-postbacks.md#refused): a 400 naming the field, logged once
 * per isolate per reason — a misconfigured sender repeats itself, and the log should not.
 */

/** The reasons a postback is refused: a fixed set, so the log's memory of them stays bounded. */
export type RejectReason =
  | 'not-json'
  | 'malformed'
  | 'unsupported-version'
  | 'missing-signature'
  | 'bad-signature'
  | 'unknown-key';

/** A refusal: its reason and the `{ error }` text the sender gets. */
export interface Rejection {
  reason: RejectReason;
  error: string;
}

/** A refusal for `reason`, answered with `error` (`<field>: <why>`). */
export const reject = (reason: RejectReason, error: string): Rejection => ({ reason, error });

export const isRejection = (value: unknown): value is Rejection =>
  typeof value === 'object' && value !== null && 'reason' in value && 'error' in value;

const logged = new Set<string>();

/** Logs the first refusal of each kind and reason in this isolate; the rest are only answered. */
export function logRejection(kind: string, rejection: Rejection): void {
  const key = `${kind}:${rejection.reason}`;
  if (logged.has(key)) return;
  logged.add(key);
  console.warn(
    `Store postback refused (${kind}, ${rejection.reason}): ${rejection.error}; further ones are not logged`,
  );
}
