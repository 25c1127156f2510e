/**
 * Erasure and access requests (docs/privacy.md#requests-erasure-and-access): the body
 * `POST /api/privacy/requests` takes and the answers of the privacy API, in the shape of the OpenDSR
 * specification (its field names and statuses), as valibot schemas the worker checks with, the
 * OpenAPI document is generated from and the console reads its types from; and the signed receipt.
 */
import * as v from 'valibot';

/** The OpenDSR version these requests speak. */
export const OPENDSR_VERSION = '0.1';
/** What a subject may be asked for: its removal or everything kept about it. */
export const REQUEST_TYPES = ['erasure', 'access'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
/**
 * Who a subject is: an app's install id (with the package or bundle id it was sent under, OpenDSR's
 * `property_id`), a user id the app gave to `identify`, or a page's visitor id.
 */
export const IDENTITY_TYPES = ['install_id', 'user_id', 'visitor_id'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];
/** OpenDSR's statuses of a request. */
export const REQUEST_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
/** How long an erasure may take at most: the answer's `expected_completion_time` is this after it was received. */
export const COMPLETION_MS = 24 * 60 * 60 * 1000;

const IsoTime = v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 time'));
/** An id as the app or the page sent it: printable, no space, at most 200 characters. */
const IdentityValue = v.pipe(
  v.string('must be a string'),
  v.regex(/^[\x21-\x7e]{1,200}$/, 'must be 1 to 200 printable ASCII characters without spaces'),
);

/** One of the subject's identities, as OpenDSR writes it; only `raw` values can be hashed as the stores are. */
export const SubjectIdentitySchema = v.strictObject({
  identity_type: v.picklist(IDENTITY_TYPES, `must be one of ${IDENTITY_TYPES.join(', ')}`),
  identity_value: IdentityValue,
  identity_format: v.literal('raw', 'must be raw: the stores keep keyed hashes Lander computes from the raw id'),
});
export type SubjectIdentity = v.InferOutput<typeof SubjectIdentitySchema>;

/** `POST /api/privacy/requests`: an OpenDSR request for one subject. */
export const PrivacyRequestSchema = v.strictObject({
  subject_request_id: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.uuid('must be a UUID'),
      v.transform((id) => id.toLowerCase()),
    ),
  ),
  subject_request_type: v.picklist(REQUEST_TYPES, `must be one of ${REQUEST_TYPES.join(', ')}`),
  subject_identities: v.pipe(
    v.array(SubjectIdentitySchema, 'must be an array of identities'),
    v.length(1, 'must hold exactly one identity'),
  ),
  /** The package or bundle id an `install_id` was sent under (the SDK's `app`); needed for one. */
  property_id: v.optional(
    v.pipe(v.string('must be a string'), v.regex(/^[\w.-]{1,200}$/, 'must be a package or bundle id')),
  ),
  submitted_time: IsoTime,
  api_version: v.optional(v.literal(OPENDSR_VERSION, `must be ${OPENDSR_VERSION}`)),
  status_callback_urls: v.optional(
    v.pipe(
      v.array(v.string('must be a string'), 'must be an array of URLs'),
      v.maxLength(3, 'must hold at most 3 URLs'),
    ),
  ),
});
export type PrivacyRequest = v.InferOutput<typeof PrivacyRequestSchema>;

/** The answer to a request made: when it was received and by when it will be done. */
export const PrivacyRequestAnswerSchema = v.object({
  subject_request_id: v.string(),
  received_time: v.string(),
  expected_completion_time: v.string(),
  api_version: v.string(),
  /** The Standard Webhooks secret that signs the status callbacks, shown this once; null without callbacks. */
  callback_secret: v.nullable(v.string()),
});
export type PrivacyRequestAnswer = v.InferOutput<typeof PrivacyRequestAnswerSchema>;

/** A store and what was removed from it, or found in it. */
export const ReceiptLineSchema = v.object({
  /** `d1`, `durable-object`, `r2` or `queue`. */
  store: v.string(),
  /** The table, object class and table, or R2 key. */
  where: v.string(),
  count: v.number(),
});
export type ReceiptLine = v.InferOutput<typeof ReceiptLineSchema>;

/** What a receipt says, signed as its RFC 8785 canonical JSON. */
export const ReceiptBodySchema = v.object({
  subject_request_id: v.string(),
  subject_request_type: v.picklist(REQUEST_TYPES),
  app: v.string(),
  identity_type: v.picklist(IDENTITY_TYPES),
  /** SHA-256 (hex) of the subject's keyed hashes: names the subject without keeping it. */
  subject_digest: v.string(),
  received_time: v.string(),
  completed_time: v.string(),
  /** Erasure: what was removed, from where. Access: what was found, where. */
  lines: v.array(ReceiptLineSchema),
  /** What is kept on purpose, and why. */
  kept: v.array(v.object({ where: v.string(), why: v.string() })),
});
export type ReceiptBody = v.InferOutput<typeof ReceiptBodySchema>;

/** A signed receipt: its body, the Ed25519 signature (base64url) and the public key's JWK `x`. */
export const ReceiptSchema = v.object({
  receipt: ReceiptBodySchema,
  alg: v.literal('Ed25519'),
  signature: v.string(),
  public_key: v.string(),
});
export type Receipt = v.InferOutput<typeof ReceiptSchema>;

/** `GET /api/privacy/requests/<id>`: OpenDSR's status answer, with the receipt once completed. */
export const PrivacyStatusSchema = v.object({
  subject_request_id: v.string(),
  subject_request_type: v.picklist(REQUEST_TYPES),
  identity_type: v.picklist(IDENTITY_TYPES),
  request_status: v.picklist(REQUEST_STATUSES),
  api_version: v.string(),
  received_time: v.string(),
  expected_completion_time: v.string(),
  completed_time: v.nullable(v.string()),
  /** Access: where the subject's data is read (`GET …/data`); null for an erasure. */
  results_url: v.nullable(v.string()),
  receipt: v.nullable(ReceiptSchema),
});
export type PrivacyStatus = v.InferOutput<typeof PrivacyStatusSchema>;

/** `GET /api/privacy/requests`: the app's requests, newest first. */
export const PrivacyListSchema = v.object({ requests: v.array(PrivacyStatusSchema) });
export type PrivacyList = v.InferOutput<typeof PrivacyListSchema>;

/** `GET /api/privacy/requests/<id>/data`: what is kept about an access request's subject, by `<store> <where>`. */
export const PrivacyDataSchema = v.object({
  subject_request_id: v.string(),
  identity_type: v.picklist(IDENTITY_TYPES),
  data: v.record(v.string(), v.array(v.record(v.string(), v.unknown()))),
});
export type PrivacyData = v.InferOutput<typeof PrivacyDataSchema>;

/** `GET /api/privacy/receipt-key`: the public key receipts are checked with, as a JWK. */
export const ReceiptKeySchema = v.object({
  kty: v.literal('OKP'),
  crv: v.literal('Ed25519'),
  x: v.string(),
});
