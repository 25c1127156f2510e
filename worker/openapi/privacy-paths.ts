/**
 * The privacy API in the OpenAPI document (docs/privacy.md#requests-erasure-and-access): erasure and
 * access requests in OpenDSR's shape, their status and signed receipts, an access request's data,
 * cancelling, and the public key receipts are checked with; bodies and answers are the routes' own
 * schemas (shared/privacy.ts).
 */
import {
  PrivacyDataSchema,
  PrivacyListSchema,
  PrivacyRequestAnswerSchema,
  PrivacyRequestSchema,
  PrivacyStatusSchema,
  ReceiptKeySchema,
} from '../../shared/privacy.ts';
import { ADMIN_ERRORS, ADMIN_WRITE_ERRORS, admin, answer, body, type Json, refusal } from './operation-parts.ts';

/** The paths of `/api/privacy/requests`, one request, its data, and `/api/privacy/receipt-key`. */
export function privacyPaths(): Json {
  const id = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The request’s `subject_request_id`, a lower-case UUID.',
    schema: { type: 'string', pattern: '^[0-9a-f-]{36}$' },
  };
  const unknown = refusal('No request of this id in this app.');
  const one = { ...admin, parameters: [id] };
  return {
    '/api/privacy/requests': {
      get: {
        ...admin,
        summary:
          'The app’s privacy requests, newest first (at most 100), each with its status and receipt (`privacy:read`).',
        responses: { 200: answer('The requests.', PrivacyListSchema), ...ADMIN_ERRORS },
      },
      post: {
        ...admin,
        summary:
          'Takes an erasure or access request for one subject, in the shape of OpenDSR: an install id (with `property_id`), a user id given to `identify`, or a visitor id, raw (`privacy:write`).',
        description:
          'It is carried out within 24 hours; each of `status_callback_urls` is sent its status on completion, signed with `callback_secret` as webhooks are (docs/privacy.md#requests-erasure-and-access).',
        requestBody: body(PrivacyRequestSchema),
        responses: {
          201: answer(
            'Received: its id, when it is due, and the callbacks’ secret shown this once.',
            PrivacyRequestAnswerSchema,
          ),
          400: refusal('A field is wrong (named), a callback URL may not be called, or no salt is set.'),
          409: refusal('This app already has a request of this `subject_request_id`.'),
          413: refusal('The body is larger than 8 KiB.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/privacy/requests/{id}': {
      get: {
        ...one,
        summary: 'One request: its OpenDSR status and, once completed, its signed receipt (`privacy:read`).',
        responses: { 200: answer('The request.', PrivacyStatusSchema), 404: unknown, ...ADMIN_ERRORS },
      },
      delete: {
        ...one,
        summary: 'Cancels a pending request; its subject’s hashes are forgotten (`privacy:write`).',
        responses: {
          204: answer('Cancelled.'),
          404: unknown,
          409: refusal('The request is no longer pending.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/privacy/requests/{id}/data': {
      get: {
        ...one,
        summary:
          'Everything kept about an access request’s subject, store by store and row by row, read now (`privacy:read`).',
        responses: {
          200: answer('The data, by `<store> <where>`.', PrivacyDataSchema),
          404: unknown,
          409: refusal('Not an access request, or one cancelled.'),
          ...ADMIN_ERRORS,
        },
      },
    },
    '/api/privacy/receipt-key': {
      get: {
        tags: ['operators'],
        summary:
          'The Ed25519 public key receipts are signed with, as a JWK (no sign-in): `npm run privacy:verify` reads it.',
        responses: {
          200: answer('The key.', ReceiptKeySchema),
          503: refusal('`PRIVACY_RECEIPT_KEY` is not set.'),
        },
      },
    },
  };
}
