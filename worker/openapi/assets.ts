/**
 * Where the client build writes the OpenAPI document and its reference page (scripts/lib/vite-openapi.ts):
 * built once from the routes' own schemas, served from the build's assets, so the worker's bundle
 * carries neither the document's code nor the JSON Schema converter.
 */

/** The OpenAPI document, under the client build's output (dist/client). */
export const OPENAPI_ASSET = 'assets/openapi.json';
/** The reference page of `GET /api/docs`. */
export const REFERENCE_ASSET = 'assets/api-reference.html';
