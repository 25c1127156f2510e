/**
 * The webhooks admin API's answers (`/api/webhooks`, docs/webhooks.md#admin-api) as schemas, held to
 * the contract's types (shared/webhooks.ts) so the OpenAPI document cannot drift from what the routes
 * answer; the request schemas are the routes' own, imported as they are.
 */
import * as v from 'valibot';
import {
  type AttemptView,
  DISABLED_REASONS,
  type EndpointView,
  type EndpointWithSecret,
  WEBHOOK_EVENT_TYPES,
} from '../../shared/webhooks.ts';
import { ENDPOINT_ID } from '../webhooks/endpoints.ts';

const iso = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const webhookId = v.pipe(v.string(), v.regex(/^msg_[\w-]+$/));

/** An endpoint's id, as the path names it. */
export const EndpointIdSchema = v.pipe(v.string(), v.regex(ENDPOINT_ID));

export const EndpointViewSchema = v.strictObject({
  id: EndpointIdSchema,
  url: v.string(),
  description: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  enabled: v.boolean(),
  disabledReason: v.nullable(v.picklist(DISABLED_REASONS)),
  failingSince: v.nullable(iso),
  previousSecretUntil: v.nullable(iso),
  createdAt: iso,
  updatedAt: iso,
  counts: v.strictObject({ pending: count, delivered: count, failed: count, dead: count }),
}) satisfies v.GenericSchema<EndpointView>;

/** `GET /api/webhooks`. */
export const EndpointsSchema = v.strictObject({ endpoints: v.array(EndpointViewSchema) });

/** Creating an endpoint or rotating its secret: the only answers that show the secret. */
export const EndpointWithSecretSchema = v.strictObject({
  endpoint: EndpointViewSchema,
  secret: v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{32}$/)),
}) satisfies v.GenericSchema<EndpointWithSecret>;

/** `POST /api/webhooks/<id>/test`: what the one signed `test` delivery got. */
export const TestDeliverySchema = v.strictObject({
  id: webhookId,
  delivered: v.boolean(),
  status: v.pipe(v.number(), v.integer()),
  latencyMs: count,
  error: v.string(),
});

export const AttemptViewSchema = v.strictObject({
  id: webhookId,
  type: v.picklist([...WEBHOOK_EVENT_TYPES, 'test']),
  attempt: count,
  at: iso,
  status: v.pipe(v.number(), v.integer()),
  latencyMs: count,
  error: v.string(),
  retryInSeconds: v.nullable(count),
}) satisfies v.GenericSchema<AttemptView>;

/** `GET /api/webhooks/<id>/attempts`. */
export const AttemptsSchema = v.strictObject({ attempts: v.array(AttemptViewSchema) });

/** `POST /api/webhooks/<id>/resend`: how many messages were queued again. */
export const ResentSchema = v.strictObject({ resent: count });

/** `GET /api/webhooks/install-key`'s answer: the key of the app's install hashes. */
export const InstallKeySchema = v.strictObject({
  installKey: v.pipe(
    v.string(),
    v.description('HMAC-SHA-256 key (its UTF-8 text) of `webhook-install\\0<app>\\0<installId>`'),
  ),
});
