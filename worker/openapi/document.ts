/**
 * The OpenAPI 3.1 document of the public API (`GET /api/openapi.json`, docs/api.md), generated from
 * the routes' own valibot schemas by `@valibot/to-json-schema` (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect): bodies and queries as the routes check them (their input), answers as answer-schemas.ts
 * holds them to the routes' types. Only the paths, methods and statuses are written here.
 */
import { SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { StorePostbacksViewSchema } from '../../shared/store-postbacks.ts';
import { WEBHOOK_EVENT_TYPES, webhookPayloadSchema } from '../../shared/webhooks.ts';
import {
  AnswerResponseSchema,
  AppEventBodySchema,
  ClickSchema,
  IdentifySchema,
  InstallSchema,
  OpenSchema,
} from '../attribution/contract.ts';
import {
  InstallLookupQuerySchema,
  TestDeviceRequestSchema,
  TestInstallsQuerySchema,
} from '../attribution/operator-queries.ts';
import { AuditExportQuerySchema, AuditPageSchema, AuditQuerySchema } from '../audit/contract.ts';
import { CardAnswerSchema, CardBodySchema } from '../campaign/link-card.ts';
import { LinkChangeSchema } from '../campaign/link-changes.ts';
import { LinkRequestSchema } from '../campaign/links.ts';
import { FraudQuerySchema } from '../fraud/report.ts';
import { StatsQuerySchema } from '../funnel/stats-query.ts';
import { LossesSchema } from '../reliability/losses.ts';
import { StorePostbacksQuerySchema } from '../store-postbacks/contract.ts';
import {
  ClickIdsSchema,
  DeviceInfoSchema,
  ErrorSchema,
  InstallLookupSchema,
  LinksSchema,
  LinkViewSchema,
  StatsResultSchema,
  TestDeviceSchema,
  TestDevicesSchema,
  TestInstallsSchema,
  TraceSchema,
} from './answer-schemas.ts';
import { appLinkPaths } from './app-link-paths.ts';
import { cohortPaths } from './cohort-paths.ts';
import { configPaths } from './config-paths.ts';
import { conversionPaths } from './conversion-paths.ts';
import { FraudReportSchema } from './fraud-schemas.ts';
import {
  ADMIN_ERRORS,
  ADMIN_WRITE_ERRORS,
  admin,
  answer,
  body,
  type Json,
  json,
  queryParameters,
  refusal,
} from './operation-parts.ts';
import { privacyPaths } from './privacy-paths.ts';
import { qrPaths } from './qr-paths.ts';
import { ruleSetPaths } from './rule-set-paths.ts';
import { teamPaths } from './team-paths.ts';
import { variantPaths } from './variant-paths.ts';
import { webhookAdminPaths } from './webhook-paths.ts';

const APP_ERRORS = {
  400: refusal('The body is not JSON, or a field is wrong: `{ "error": "<field>: <reason>" }`.'),
  413: refusal('The body is larger than 20 KiB (12 KiB and two consent strings of 4,096 characters).'),
  429: {
    ...refusal('Over the client\'s or the network\'s rate limit (docs/attribution.md, "Rate limits").'),
    headers: {
      'RateLimit-Policy': {
        description: 'The limits (draft-ietf-httpapi-ratelimit-headers).',
        schema: { type: 'string' },
      },
      RateLimit: {
        description: 'The limit that refused, and the seconds until it resets.',
        schema: { type: 'string' },
      },
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
    },
  },
  503: refusal('Attribution is not configured (production without `ATTRIBUTION_SALT`).'),
};

/**
 * The webhooks Lander sends to an operator's endpoints (docs/webhooks.md): one entry per event type,
 * its body as the payload schema (shared/webhooks.ts), signed as Standard Webhooks say.
 */
function webhooks(): Json {
  const signed =
    'Signed as the Standard Webhooks specification says: `webhook-id` (the same on every retry), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` (docs/webhooks.md).';
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          tags: ['webhooks'],
          summary: `The \`${type}\` event, sent to each endpoint that subscribes to it.`,
          description: signed,
          requestBody: body(webhookPayloadSchema(type)),
          responses: {
            '2XX': answer('Delivered.'),
            '4XX': answer('Refused for good, not retried; but 408, 409 and 429, which are retried.'),
            '5XX': answer('Retried with growing delays for over 24 hours (`Retry-After` honoured), as a timeout is.'),
          },
        },
      },
    ]),
  );
}
const app = { tags: ['attribution'] };

function build(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lander API',
      version: '1',
      description:
        "Lander's public API: the page's and the app's attribution calls, device detection, the trace service, and the operators' admin API (docs/attribution.md, docs/operators.md).",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [
      { name: 'attribution', description: 'The page and the app (docs/attribution.md).' },
      { name: 'visitor', description: 'Device detection and the trace service (docs/device.md, docs/identity.md).' },
      { name: 'operators', description: 'The admin API (docs/operators.md).' },
      { name: 'webhooks', description: "What Lander sends to the operator's endpoints (docs/webhooks.md)." },
    ],
    webhooks: webhooks(),
    components: { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/api/a/click-ids': {
        get: {
          ...app,
          summary: "Click ids for the page's next taps, issued and signed by the worker (docs/attribution.md).",
          responses: { 200: answer('The ids.', ClickIdsSchema), 429: answer('Too many requests.', ErrorSchema) },
        },
      },
      '/api/a/click': {
        post: {
          ...app,
          summary: "A tap on the page (the page's beacon; any content type).",
          requestBody: body(ClickSchema),
          responses: { 204: answer('Recorded (or a crawler: ignored).'), ...APP_ERRORS },
        },
      },
      '/api/a/install': {
        post: {
          ...app,
          summary: "The app's first launch: which tap brought it. Idempotent per (app, installId) for 30 days.",
          description: 'With `test: true` (a test device) the answer also carries `explain`, and nothing is counted.',
          requestBody: body(InstallSchema),
          responses: { 200: answer('The answer.', AnswerResponseSchema), ...APP_ERRORS },
        },
      },
      '/api/a/open': {
        post: {
          ...app,
          summary: 'An installed app opened by a link.',
          requestBody: body(OpenSchema),
          responses: { 200: answer('The answer.', AnswerResponseSchema), ...APP_ERRORS },
        },
      },
      '/api/a/event': {
        post: {
          ...app,
          summary: 'App events, one or a batch (1–50); an event with an id is counted once per (app, installId, id).',
          requestBody: body(AppEventBodySchema),
          responses: { 204: answer('Accepted.'), ...APP_ERRORS },
        },
      },
      '/api/a/identify': {
        post: {
          ...app,
          summary:
            'The user signed in on an install: only a keyed hash is kept, for the self-referral rule (docs/fraud.md).',
          requestBody: body(IdentifySchema),
          responses: { 204: answer('Kept.'), ...APP_ERRORS },
        },
      },
      ...appLinkPaths(APP_ERRORS),
      '/api/device': {
        get: {
          tags: ['visitor'],
          summary: "The worker's device detection for this request.",
          responses: { 200: answer('The device.', DeviceInfoSchema) },
        },
      },
      '/api/trace': {
        get: {
          tags: ['visitor'],
          summary: "The visitor's id from the `user_id` cookie, or a new one (and the cookie).",
          responses: { 200: answer('The id.', TraceSchema) },
        },
      },
      '/api/links': {
        get: {
          ...admin,
          summary: 'The short links.',
          responses: { 200: answer('The links.', LinksSchema), ...ADMIN_ERRORS },
        },
        post: {
          ...admin,
          summary: 'Mints and stores a short link.',
          requestBody: body(LinkRequestSchema),
          responses: {
            201: answer('The link.', LinkViewSchema),
            400: refusal('A field is wrong.'),
            409: refusal('The slug is taken.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
      },
      '/api/links/{slug}': {
        get: {
          ...admin,
          summary: 'One short link, expired or not (what `npm run import` compares before it stores).',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } }],
          responses: {
            200: answer('The link.', LinkViewSchema),
            404: refusal('No such link.'),
            ...ADMIN_ERRORS,
          },
        },
        patch: {
          ...admin,
          summary:
            'Changes a short link: its expiry (`null`: never), its rules (`[]`: none), its password (`null`: none) or its preview (`null`: none); what the body leaves out stays. Its campaign cannot change.',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } }],
          requestBody: body(LinkChangeSchema),
          responses: {
            200: answer('The link as changed.', LinkViewSchema),
            400: refusal(
              'A field is wrong (named, with why): an expiry in the past, a rule that does not compile, nothing to change.',
            ),
            404: refusal('No such link.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
        delete: {
          ...admin,
          summary: 'Removes a short link and its preview card: `/s/{slug}` is the 404 page afterwards.',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } }],
          responses: {
            204: answer('Removed.'),
            404: refusal('No such link.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
      },
      '/api/links/{slug}/card': {
        put: {
          ...admin,
          summary:
            "The link's preview card (docs/smart-links.md#previews), a 1200×630 PNG of at most 300 kB in base64, served at `/s/{slug}/card.png`.",
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } }],
          requestBody: body(CardBodySchema),
          responses: {
            200: answer('Kept: its URL.', CardAnswerSchema),
            400: refusal('Not base64, not a PNG, not 1200×630 or too large.'),
            404: refusal('No such link.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
      },
      '/api/fraud': {
        get: {
          ...admin,
          summary: 'Fraud flags per inviter and channel, the anomalies, and the flagged installs with their reasons.',
          parameters: queryParameters(FraudQuerySchema),
          responses: {
            200: answer('The report.', FraudReportSchema),
            400: refusal('A parameter is wrong.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/stats': {
        get: {
          ...admin,
          summary: "The funnel's figures for a date range, grouped by one dimension (CSV with `Accept: text/csv`).",
          parameters: queryParameters(StatsQuerySchema),
          responses: {
            200: {
              description: 'The figures.',
              content: { ...json(StatsResultSchema), 'text/csv': { schema: { type: 'string' } } },
            },
            400: refusal('A parameter is wrong.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/test-installs': {
        get: {
          ...admin,
          summary: "Test devices' answers with their explanations, newest first (kept 7 days, at most 500).",
          parameters: queryParameters(TestInstallsQuerySchema),
          responses: {
            200: answer('The answers.', TestInstallsSchema),
            400: refusal('A parameter is wrong.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/test-devices': {
        get: {
          ...admin,
          summary: 'The registered test devices, newest first: only their `test: true` calls are answered as tests.',
          responses: { 200: answer('The devices.', TestDevicesSchema), ...ADMIN_ERRORS },
        },
        post: {
          ...admin,
          summary: 'Registers an installation as a test device (kept as a keyed hash of app and install id).',
          requestBody: body(TestDeviceRequestSchema),
          responses: {
            200: answer('Already registered: the device as it was.', TestDeviceSchema),
            201: answer('Registered.', TestDeviceSchema),
            400: refusal('A field is wrong, or the app is not configured.'),
            409: refusal('Too many test devices: forget one first.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
      },
      '/api/test-devices/{id}': {
        delete: {
          ...admin,
          summary: 'Forgets a test device: its `test: true` calls are refused again.',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } }],
          responses: {
            204: answer('Forgotten.'),
            404: refusal('No such test device.'),
            ...ADMIN_WRITE_ERRORS,
          },
        },
      },
      '/api/losses': {
        get: {
          ...admin,
          summary: 'What a fault made the worker give up on in the last 7 days, by kind (docs/reliability.md).',
          responses: { 200: answer('The counts.', LossesSchema), ...ADMIN_ERRORS },
        },
      },
      '/api/store-postbacks': {
        get: {
          ...admin,
          summary: "Apple's signed postbacks counted per day since a day (docs/store-postbacks.md).",
          parameters: queryParameters(StorePostbacksQuerySchema),
          responses: {
            200: answer('The day totals and the aggregates Apple gave.', StorePostbacksViewSchema),
            400: refusal('`since` is wrong.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/installs': {
        get: {
          ...admin,
          summary: "One install's answer and why (kept 30 days).",
          parameters: queryParameters(InstallLookupQuerySchema),
          responses: {
            200: answer('The answer.', InstallLookupSchema),
            400: refusal('A parameter is wrong.'),
            404: refusal('No answer kept for this install.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/audit': {
        get: {
          ...admin,
          summary:
            "The audit log, newest first: every accepted operator change with who, when, how signed in, before and after (docs/operators.md#audit-log). Filter by kind, actor, target, from/to; page with `before` = the answer's `next`.",
          parameters: queryParameters(AuditQuerySchema),
          responses: {
            200: answer('A page of entries.', AuditPageSchema),
            400: refusal('A parameter is wrong.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      '/api/audit/export': {
        get: {
          ...admin,
          summary:
            'Every audit entry in order, one JSON object a line (NDJSON), for `npm run audit:verify` to check offline: at most 100,000 entries an answer, from seq `after` + 1; a `Link: <…?after=N>; rel="next"` header names the next part.',
          parameters: queryParameters(AuditExportQuerySchema),
          responses: {
            200: {
              description:
                "The entries, one per line, each as `GET /api/audit` gives it; another app's as `{ seq, redacted: true, prevHash, hash }` only (the admin token reads every entry whole).",
              content: { 'application/x-ndjson': { schema: { type: 'string' } } },
            },
            400: refusal('`after` is wrong, or a parameter is given twice.'),
            ...ADMIN_ERRORS,
          },
        },
      },
      ...webhookAdminPaths(),
      ...conversionPaths(),
      ...teamPaths(),
      ...privacyPaths(),
      ...cohortPaths(),
      ...configPaths(),
      ...qrPaths(),
      ...variantPaths(),
      ...ruleSetPaths(),
    },
  };
}

let built: Json | undefined;

/** The document, built once per isolate. */
export function openApiDocument(): Json {
  built ??= build();
  return built;
}
