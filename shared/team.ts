/**
 * The team's admin API (docs/operators.md#api-keys, #members): the bodies `/api/keys` and
 * `/api/members` take and the answers they give, as valibot schemas the worker checks with, the
 * OpenAPI document is generated from and the console reads its types from.
 */
import * as v from 'valibot';
import { ROLES, SCOPES } from './roles.ts';

/** The most calls per minute a key may be given. */
export const MAX_KEY_RATE = 10_000;
/**
 * A member's subject in a path: an email or a provider's subject, no space, control or format
 * character (a zero-width or bidirectional mark would list one subject looking like another).
 */
export const SUBJECT_PATTERN = /^[^\s\p{Cc}\p{Cf}]{1,200}$/u;

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/** `POST /api/keys`: a name, the scopes (each the creator's own), an optional expiry and rate. */
export const KeyRequestSchema = v.strictObject({
  name: v.pipe(
    v.string('must be a string'),
    v.regex(/\S/, 'must not be empty'),
    v.maxLength(60, 'must be at most 60 characters'),
  ),
  scopes: v.pipe(
    v.array(v.picklist(SCOPES, `must be one of ${SCOPES.join(', ')}`), 'must be an array of scopes'),
    v.minLength(1, 'must name at least one scope'),
  ),
  expiresAt: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.isoTimestamp('must be an ISO 8601 time with its zone, e.g. 2027-01-01T00:00:00Z'),
    ),
  ),
  rateLimit: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, `must be from 1 to ${MAX_KEY_RATE}`),
      v.maxValue(MAX_KEY_RATE, `must be from 1 to ${MAX_KEY_RATE}`),
    ),
  ),
});
export type KeyRequest = v.InferInput<typeof KeyRequestSchema>;

/** A key as listed: never its secret nor its hash. */
export const KeyViewSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  scopes: v.array(v.picklist(SCOPES)),
  /** Calls per minute. */
  rateLimit: v.number(),
  expiresAt: v.nullable(IsoTime),
  revokedAt: v.nullable(IsoTime),
  createdBy: v.string(),
  createdAt: IsoTime,
});
export type KeyView = v.InferOutput<typeof KeyViewSchema>;

/** `POST /api/keys`'s answer: the key, shown this once. */
export const NewKeySchema = v.strictObject({ ...KeyViewSchema.entries, key: v.string() });
export type NewKey = v.InferOutput<typeof NewKeySchema>;

export const KeysSchema = v.strictObject({ keys: v.array(KeyViewSchema) });

/** `PUT /api/members/:subject`: the role the member gets. */
export const MemberRequestSchema = v.strictObject({
  role: v.picklist(ROLES, `must be one of ${ROLES.join(', ')}`),
});

export const MemberViewSchema = v.strictObject({
  subject: v.string(),
  role: v.picklist(ROLES),
  createdAt: IsoTime,
  updatedAt: IsoTime,
});
export type MemberView = v.InferOutput<typeof MemberViewSchema>;

export const MembersSchema = v.strictObject({ members: v.array(MemberViewSchema) });
