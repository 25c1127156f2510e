/**
 * The conversions admin API in the OpenAPI document (`/api/conversions/destinations`,
 * docs/conversions.md#admin-api): bodies the routes' own schemas (shared/conversions.ts), the log's
 * query the route's, answers held here to the contract's types.
 */
import * as v from 'valibot';
import {
  CONVERSION_PLATFORMS,
  type ConversionAttemptView,
  type ConversionTestResult,
  DestinationCreateSchema,
  DestinationUpdateSchema,
  type DestinationView,
} from '../../shared/conversions.ts';
import { DESTINATION_ID } from '../conversions/destinations.ts';
import { AttemptsQuerySchema } from '../lib/attempts-query.ts';
import {
  ADMIN_ERRORS,
  ADMIN_WRITE_ERRORS,
  admin,
  answer,
  body,
  type Json,
  jsonSchema,
  queryParameters,
  refusal,
} from './operation-parts.ts';

const iso = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const DestinationIdSchema = v.pipe(v.string(), v.regex(DESTINATION_ID));

export const DestinationViewSchema = v.strictObject({
  id: DestinationIdSchema,
  platform: v.picklist(CONVERSION_PLATFORMS),
  name: v.string(),
  settings: v.record(v.string(), v.unknown()),
  hasToken: v.boolean(),
  events: v.record(v.string(), v.string()),
  enabled: v.boolean(),
  createdAt: iso,
  updatedAt: iso,
  counts: v.strictObject({ pending: count, delivered: count, failed: count, dead: count }),
}) satisfies v.GenericSchema<DestinationView>;

export const DestinationsSchema = v.strictObject({ destinations: v.array(DestinationViewSchema) });

export const ConversionAttemptsSchema = v.strictObject({
  attempts: v.array(
    v.strictObject({
      eventId: v.string(),
      name: v.string(),
      attempt: count,
      status: count,
      outcome: v.picklist(['delivered', 'retry', 'failed', 'dead']),
      latencyMs: count,
      error: v.string(),
      at: iso,
    }) satisfies v.GenericSchema<ConversionAttemptView>,
  ),
});

export const ConversionTestSchema = v.strictObject({
  delivered: v.boolean(),
  status: count,
  latencyMs: count,
  error: v.string(),
}) satisfies v.GenericSchema<ConversionTestResult>;

/** The paths of `/api/conversions/destinations` and its calls on one destination. */
export function conversionPaths(): Json {
  const id = { name: 'id', in: 'path', required: true, schema: jsonSchema(DestinationIdSchema, 'input') };
  const unknown = refusal('No destination with this id.');
  const tooLarge = refusal('The body is larger than 16 KiB.');
  const one = { ...admin, parameters: [id] };
  return {
    '/api/conversions/destinations': {
      get: {
        ...admin,
        summary: "The app's conversion destinations, each with its delivery counts (never its token).",
        responses: { 200: answer('The destinations.', DestinationsSchema), ...ADMIN_ERRORS },
      },
      post: {
        ...admin,
        summary: 'Adds a destination: an ad platform the installs and app events are sent to.',
        description:
          "`settings` is the platform's (docs/conversions.md#platforms); `token` its access token or API secret, never answered. Needs `conversions:write`.",
        requestBody: body(DestinationCreateSchema),
        responses: {
          201: answer('The destination.', DestinationViewSchema),
          400: refusal('A field is wrong: the platform, its settings, its token or the event names.'),
          413: tooLarge,
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/conversions/destinations/{id}': {
      get: {
        ...one,
        summary: 'One destination with its delivery counts.',
        responses: { 200: answer('The destination.', DestinationViewSchema), 404: unknown, ...ADMIN_ERRORS },
      },
      patch: {
        ...one,
        summary: 'Changes a destination; its platform stays.',
        requestBody: body(DestinationUpdateSchema),
        responses: {
          200: answer('The destination.', DestinationViewSchema),
          400: refusal('A field is wrong.'),
          404: unknown,
          413: tooLarge,
          ...ADMIN_WRITE_ERRORS,
        },
      },
      delete: {
        ...one,
        summary: 'Removes a destination with its deliveries and log.',
        responses: { 204: answer('Removed.'), 404: unknown, ...ADMIN_WRITE_ERRORS },
      },
    },
    '/api/conversions/destinations/{id}/test': {
      post: {
        ...one,
        summary: 'Sends a made-up install now and answers what the platform did; the attempt goes to the log.',
        responses: { 200: answer('The attempt.', ConversionTestSchema), 404: unknown, ...ADMIN_WRITE_ERRORS },
      },
    },
    '/api/conversions/destinations/{id}/attempts': {
      get: {
        ...one,
        parameters: [id, ...queryParameters(AttemptsQuerySchema)],
        summary: "The destination's newest delivery attempts, newest first (200 kept).",
        responses: {
          200: answer('The attempts.', ConversionAttemptsSchema),
          400: refusal('`limit` is wrong.'),
          404: unknown,
          ...ADMIN_ERRORS,
        },
      },
    },
  };
}
