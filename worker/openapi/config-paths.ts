/**
 * The configuration's admin API in the OpenAPI document (`/api/config`, docs/config.md#through-the-admin-api):
 * answers from the route's own schemas (worker/config/contract.ts). The body is the configuration
 * document, whose every field docs/config.md lists: its schema (shared/config/schema.ts) trims and
 * transforms, which JSON Schema has no words for, so the body is named here rather than restated.
 */
import { ConfigAnswerSchema, ConfigPutAnswerSchema, ConfigRefusalSchema } from '../config/contract.ts';
import { ADMIN_ERRORS, ADMIN_WRITE_ERRORS, admin, answer, type Json, refusal } from './operation-parts.ts';

/** The paths of `/api/config`. */
export function configPaths(): Json {
  return {
    '/api/config': {
      get: {
        ...admin,
        summary: 'The app’s configuration document as stored in KV, or `null` when it has none (`config:read`).',
        responses: { 200: answer('The stored document.', ConfigAnswerSchema), ...ADMIN_ERRORS },
      },
      put: {
        ...admin,
        summary:
          'Checks a configuration document as `npm run config:push` does, stores it under the app’s key and appends one audit entry of kind `config` with before and after (`config:write`). The same document again changes nothing.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', description: 'The configuration document (docs/config.md).' },
            },
          },
        },
        responses: {
          200: answer(
            'The document as stored, with the schema’s defaults; `changed` false when KV held it already.',
            ConfigPutAnswerSchema,
          ),
          400: answer(
            'Not JSON, not a valid document, mainland China without its disclosures, or (production) not ready: each problem at its JSON path.',
            ConfigRefusalSchema,
          ),
          413: refusal('The body is larger than 256 KiB.'),
          ...ADMIN_WRITE_ERRORS,
          503: refusal('KV or the audit log is unavailable; nothing was changed.'),
        },
      },
    },
  };
}
