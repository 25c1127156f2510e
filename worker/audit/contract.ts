/**
 * The audit log's API contract (docs/operators.md#audit-log): `GET /api/audit`'s query and what it and
 * `GET /api/audit/export` answer, as valibot schemas the route checks with and the OpenAPI document
 * (worker/openapi/) is generated from.
 */
import * as v from 'valibot';
import { CHANGE_ACTIONS, CHANGE_KINDS } from '../facts.ts';

const whole = (min: number, max: number, rule: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,12}$/, rule), v.toNumber(), v.minValue(min, rule), v.maxValue(max, rule));
const time = v.pipe(
  v.string(),
  v.isoTimestamp('must be an ISO 8601 time with its zone, e.g. 2026-11-01T00:00:00Z'),
  v.transform((text) => Date.parse(text)),
);
const text = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'must be at most 200 characters'),
);

/**
 * `GET /api/audit`'s query: newest first, `limit` entries (1–200, 50) before the entry `before` (the
 * answer's `next`), of one kind, actor or target, changed from `from` (included) to `to` (excluded).
 */
export const AuditQuerySchema = v.strictObject({
  kind: v.optional(v.picklist(CHANGE_KINDS, `must be one of ${CHANGE_KINDS.join(', ')}`)),
  actor: v.optional(text),
  target: v.optional(text),
  from: v.optional(time),
  to: v.optional(time),
  before: v.optional(whole(1, Number.MAX_SAFE_INTEGER, 'must be an entry’s seq, a whole number from 1')),
  limit: v.optional(whole(1, 200, 'must be a whole number from 1 to 200'), '50'),
});
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;

/**
 * `GET /api/audit/export`'s query: the entries after seq `after` (0, from the first), at most
 * `EXPORT_SPAN` of them (worker/audit/entries.ts); the answer's `Link: rel="next"` names the next part.
 */
export const AuditExportQuerySchema = v.strictObject({
  after: v.optional(whole(0, Number.MAX_SAFE_INTEGER, 'must be an entry’s seq, a whole number from 0'), '0'),
});

const hash = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

/** One entry, as `GET /api/audit` answers it and the export writes it, one per line (worker/audit/chain.ts). */
export const AuditEntrySchema = v.strictObject({
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  at: v.pipe(v.number(), v.integer()),
  actor: v.string(),
  via: v.string(),
  app: v.string(),
  kind: v.picklist(CHANGE_KINDS),
  action: v.picklist(CHANGE_ACTIONS),
  target: v.string(),
  before: v.unknown(),
  after: v.unknown(),
  prevHash: hash,
  hash,
});

/** `GET /api/audit`'s answer: the page, and the `before` of the next one (null on the last page). */
export const AuditPageSchema = v.strictObject({
  entries: v.array(AuditEntrySchema),
  next: v.nullable(v.number()),
});
