/**
 * Checks a real answer of the worker against the OpenAPI document it serves (`GET
 * /api/openapi.json`, docs/api.md): the status must be one the document lists for the operation, and
 * a JSON body must validate against that status's schema. The validator is @cfworker/json-schema
 * (JSON Schema 2020-12 without code generation, so it runs inside workerd).
 */

import { exports } from 'cloudflare:workers';
import { Validator } from '@cfworker/json-schema';
import { expect } from 'vitest';
import { ORIGIN } from './helpers.ts';

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

let document: Promise<{ paths: Record<string, Record<string, Operation>> }> | undefined;

/** The document as the worker serves it, fetched once per test file. */
export function servedDocument() {
  document ??= exports.default.fetch(new Request(`${ORIGIN}/api/openapi.json`)).then((res) => {
    expect(res.status).toBe(200);
    return res.json();
  });
  return document;
}

/**
 * Asserts that `res` (a clone is read) is an answer the document describes for `method path`; returns
 * the JSON body, or null for a body-less one.
 */
export async function expectConforms(res: Response, path: string, method = 'post'): Promise<unknown> {
  const operation = (await servedDocument()).paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is in the document`).toBeDefined();
  const described = operation?.responses[String(res.status)];
  expect(described, `${res.status} is an answer of ${method.toUpperCase()} ${path}`).toBeDefined();
  const schema = described?.content?.['application/json']?.schema;
  const text = await res.clone().text();
  if (!schema) {
    expect(text, `${res.status} of ${path} has no body`).toBe('');
    return null;
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(text);
  const result = new Validator(schema, '2020-12', false).validate(body);
  expect(result.errors, `${method.toUpperCase()} ${path} ${res.status}: ${text.slice(0, 300)}`).toEqual([]);
  return body;
}
