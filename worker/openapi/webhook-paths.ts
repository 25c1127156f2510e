/**
 * The webhooks admin API's operations in the OpenAPI document (`/api/webhooks`,
 * docs/webhooks.md#admin-api, docs/api.md): bodies the routes' own schemas (shared/webhooks.ts), the
 * attempts' query the route's (worker/webhooks/routes.ts), answers webhook-schemas.ts.
 */
import { EndpointCreateSchema, EndpointUpdateSchema, ResendSchema } from '../../shared/webhooks.ts';
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
import {
  AttemptsSchema,
  EndpointIdSchema,
  EndpointsSchema,
  EndpointViewSchema,
  EndpointWithSecretSchema,
  InstallKeySchema,
  ResentSchema,
  TestDeliverySchema,
} from './webhook-schemas.ts';

/** The paths of `/api/webhooks` and its calls on one endpoint. */
export function webhookAdminPaths(): Json {
  const endpointId = { name: 'id', in: 'path', required: true, schema: jsonSchema(EndpointIdSchema, 'input') };
  const unknown = refusal('No endpoint with this id.');
  const tooLarge = refusal('The body is larger than 8 KiB.');
  const one = { ...admin, parameters: [endpointId] };
  return {
    '/api/webhooks': {
      get: {
        ...admin,
        summary: 'The webhook endpoints, each with its delivery counts (never its secret).',
        responses: { 200: answer('The endpoints.', EndpointsSchema), ...ADMIN_ERRORS },
      },
      post: {
        ...admin,
        summary: 'Adds an endpoint; its signing secret is in this answer only.',
        description:
          'The URL must be https to a globally reachable address (a name resolving to such addresses only, in production): docs/webhooks.md#safety.',
        requestBody: body(EndpointCreateSchema),
        responses: {
          201: answer('The endpoint and its secret.', EndpointWithSecretSchema),
          400: refusal('A field is wrong, or the URL may not receive deliveries.'),
          409: refusal('Another endpoint already has this URL.'),
          413: tooLarge,
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/webhooks/install-key': {
      get: {
        ...admin,
        summary: "The key of this app's install hashes, to join a webhook's `install` to the app's user.",
        description:
          "A webhook's `data.install` is the first 16 bytes of HMAC-SHA-256 under this key of `webhook-install\\0<app>\\0<installId>`, in URL-safe base64 (docs/webhooks.md#joining-an-install-to-a-user). Needs `webhooks:write`.",
        responses: {
          200: answer('The key.', InstallKeySchema),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/webhooks/{id}': {
      get: {
        ...one,
        summary: 'One endpoint with its delivery counts.',
        responses: { 200: answer('The endpoint.', EndpointViewSchema), 404: unknown, ...ADMIN_ERRORS },
      },
      patch: {
        ...one,
        summary: 'Changes an endpoint; `enabled: true` clears a disabling.',
        requestBody: body(EndpointUpdateSchema),
        responses: {
          200: answer('The endpoint.', EndpointViewSchema),
          400: refusal('A field is wrong, or the URL may not receive deliveries.'),
          404: unknown,
          409: refusal('Another endpoint already has this URL.'),
          413: tooLarge,
          ...ADMIN_WRITE_ERRORS,
        },
      },
      delete: {
        ...one,
        summary: 'Removes an endpoint with its deliveries and log.',
        responses: { 204: answer('Removed.'), 404: unknown, ...ADMIN_WRITE_ERRORS },
      },
    },
    '/api/webhooks/{id}/rotate': {
      post: {
        ...one,
        summary: 'A new signing secret, in this answer only; the old one signs beside it for 24 hours.',
        responses: {
          200: answer('The endpoint and its new secret.', EndpointWithSecretSchema),
          404: unknown,
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/webhooks/{id}/test': {
      post: {
        ...one,
        summary: 'Sends one signed `test` message now and answers what the receiver did.',
        responses: { 200: answer('The attempt.', TestDeliverySchema), 404: unknown, ...ADMIN_WRITE_ERRORS },
      },
    },
    '/api/webhooks/{id}/attempts': {
      get: {
        ...one,
        parameters: [endpointId, ...queryParameters(AttemptsQuerySchema)],
        summary: "The endpoint's newest delivery attempts, newest first (200 kept).",
        responses: {
          200: answer('The attempts.', AttemptsSchema),
          400: refusal('`limit` is wrong.'),
          404: unknown,
          ...ADMIN_ERRORS,
        },
      },
    },
    '/api/webhooks/{id}/resend': {
      post: {
        ...one,
        summary: 'Queues one message again by its `webhook-id`, or every one of a time range the endpoint did not get.',
        requestBody: body(ResendSchema),
        responses: {
          202: answer('Queued.', ResentSchema),
          400: refusal('A field is wrong.'),
          404: refusal('No endpoint with this id, or no such message to it.'),
          409: refusal('The endpoint is disabled; enable it first.'),
          413: tooLarge,
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
  };
}
