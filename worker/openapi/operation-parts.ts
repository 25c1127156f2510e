/**
 * The pieces every operation of the OpenAPI document is made of (docs/api.md): a valibot schema as
 * JSON Schema 2020-12 (`@valibot/to-json-schema`, OpenAPI 3.1's dialect), bodies as the routes read
 * them (their input), answers and refusals, a query schema's fields as parameters, and what every
 * admin call may answer.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ErrorSchema } from './answer-schemas.ts';

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/** A schema in OpenAPI 3.1's dialect, without the `$schema` each one would repeat. */
export function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'throw',
    // Checks with no JSON Schema word (a date that exists, a field name not reserved) are the server's
    // alone; JSON has no infinite number, so `finite` needs no word.
    ignoreActions: ['check', 'finite'],
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      // A campaign's fields (campaign/query-data.ts): an object of strings, the rest checked by code.
      if (valibotSchema.type === 'custom') return { type: 'object', additionalProperties: { type: 'string' } };
      // A tuple is its items and nothing more: JSON Schema says so with its length (strict mode asks it).
      if (valibotSchema.type === 'tuple' && Array.isArray(jsonSchema.prefixItems)) {
        const length = jsonSchema.prefixItems.length;
        return { ...jsonSchema, items: false, minItems: length, maxItems: length };
      }
      return undefined;
    },
  });
  return rest as Json;
}

/** A JSON answer's content of `schema`. */
export const json = (schema: v.GenericSchema): Json => ({
  'application/json': { schema: jsonSchema(schema, 'output') },
});
/** An answer, with its JSON schema when it has a body. */
export const answer = (description: string, schema?: v.GenericSchema): Json =>
  schema ? { description, content: json(schema) } : { description };
/** A refusal: `{ "error": "<field>: <reason>" }`. */
export const refusal = (description: string): Json => answer(description, ErrorSchema);
/** A required JSON body, as the route reads it. */
export const body = (schema: v.GenericSchema): Json => ({
  required: true,
  content: { 'application/json': { schema: jsonSchema(schema, 'input') } },
});

/** The query schema's fields as OpenAPI parameters. */
export function queryParameters(
  schema: v.ObjectSchema<v.ObjectEntries, undefined> | v.StrictObjectSchema<v.ObjectEntries, undefined>,
): Json[] {
  return Object.entries(schema.entries).map(([name, entry]) => ({
    name,
    in: 'query',
    required: entry.type !== 'optional',
    schema: jsonSchema(entry, 'input'),
  }));
}

/** The IETF rate-limit fields every signed-in admin answer carries (docs/operators.md#rate-limits). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: 'The caller’s policy: `"key";q=600;w=60` (draft-ietf-httpapi-ratelimit-headers).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left and the seconds until the window ends: `"key";r=599;t=42`.',
    schema: { type: 'string' },
  },
};

/** What every admin call may answer besides its own. */
export const ADMIN_ERRORS = {
  401: refusal(
    'Not signed in (`Authorization: Bearer <admin token or API key>`, Cloudflare Access), or a key revoked or expired.',
  ),
  403: refusal('The caller lacks the route’s scope (named), is no member of the app, or holds another app’s key.'),
  429: {
    ...refusal('Over the caller’s rate limit.'),
    headers: {
      ...RATE_LIMIT_HEADERS,
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
    },
  },
  503: refusal('The admin API is not configured, or its store is unavailable.'),
};
/** What every admin write may answer besides its own (docs/security.md, "Cross-site writes"). */
export const ADMIN_WRITE_ERRORS = {
  ...ADMIN_ERRORS,
  403: refusal(
    'The caller lacks the route’s scope (named), is no member of the app, or holds another app’s key; or a write from another origin signed in by a cookie (`Sec-Fetch-Site`, `Origin`).',
  ),
  415: refusal('A body that is not `application/json`.'),
};
/** An admin call: behind the admin token, in the operators' section. */
export const admin = { security: [{ adminToken: [] }], tags: ['operators'] };
