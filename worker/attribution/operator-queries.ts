/**
 * The queries of the operators' answer routes (operator-routes.ts), apart from the routes so the
 * OpenAPI document (worker/openapi/document.ts) reads them without the Durable Objects.
 */
import * as v from 'valibot';

const appId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{3,128}$/, 'must be a package name or bundle id'));
const installId = v.pipe(v.string(), v.regex(/^[\w.:-]{8,128}$/, 'must be 8–128 characters of A-Z a-z 0-9 _ . : -'));
const whole = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'must be a whole number'), v.toNumber(), v.minValue(min), v.maxValue(max));

/** `GET /api/test-installs`'s query: how many (1–200, 50), after which id (a poller's cursor), whose. */
export const TestInstallsQuerySchema = v.strictObject({
  limit: v.optional(whole(1, 200), '50'),
  after: v.optional(whole(0, 999_999_999)),
  app: v.optional(appId),
  installId: v.optional(installId),
});

/** `GET /api/installs`'s query: the install. */
export const InstallLookupQuerySchema = v.strictObject({ app: appId, installId });

/** `POST /api/test-devices`'s body: the installation, and the operator's name for it. */
export const TestDeviceRequestSchema = v.strictObject({
  app: appId,
  installId,
  label: v.optional(v.pipe(v.string(), v.maxLength(60, 'must be at most 60 characters'))),
});

/** `DELETE /api/test-devices/:id`'s id. */
export const TEST_DEVICE_ID = '[0-9]{1,9}';
