/**
 * JSON request bodies for the write APIs (docs/attribution.md, docs/operators.md): one size bound and
 * one way to read and check a body, so every API answers the same 413 and 400 in the same words.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';

/** Refuses a body over `maxBytes` with 413: by its Content-Length, else by counting as it streams. */
export function jsonBodyLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json({ error: `Body larger than ${maxBytes} bytes` }, 413),
  });
}

/** The first problem of a failed check, with where it is: `clickId: must be 22 characters`. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid body';
  const path = v.getDotPath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** The request's JSON body checked against `schema`: its output, or the 400 to answer, naming the first problem. */
export async function readJson<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S> | Response> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return c.json({ error: 'body must be JSON; this is not JSON' }, 400);
  }
  const result = v.safeParse(schema, json);
  return result.success ? result.output : c.json({ error: firstIssue(result.issues) }, 400);
}
