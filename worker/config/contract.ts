/**
 * The configuration API's answers (docs/config.md#through-the-admin-api), as valibot schemas the
 * OpenAPI document (worker/openapi/config-paths.ts) is generated from and the tests hold answers to.
 * The body of `PUT /api/config` is the document itself (shared/config/schema.ts).
 */
import * as v from 'valibot';

/** `GET /api/config`: the app's stored document as KV holds it, or null when it has none. */
export const ConfigAnswerSchema = v.strictObject({
  app: v.string(),
  config: v.nullable(v.unknown()),
});

/** `PUT /api/config`'s 200: the document as stored (the schema's defaults filled in), and whether it changed. */
export const ConfigPutAnswerSchema = v.strictObject({
  app: v.string(),
  config: v.record(v.string(), v.unknown()),
  changed: v.boolean(),
});

/** `PUT /api/config`'s 400: what was refused, and each problem at its JSON path (`$.appData[0].plat`). */
export const ConfigRefusalSchema = v.strictObject({
  error: v.string(),
  problems: v.array(v.strictObject({ path: v.string(), message: v.string() })),
});
