/**
 * The audit log's admin API (docs/operators.md#audit-log), behind the operators' sign-in:
 * - `GET /api/audit` — a page of entries, newest first, filterable by kind, actor, target and time;
 * - `GET /api/audit/export` — every entry in order as NDJSON, the file `npm run audit:verify` checks,
 *   `EXPORT_SPAN` entries an answer at most, the next part named by `Link: rel="next"`. The chain is
 *   the deployment's: an app's caller gets the other apps' entries redacted to their seq and hashes
 *   (chain.ts `redactedOf`), so the chain still verifies and no app reads another's changes; only the
 *   admin token, owner of every app, gets every entry whole.
 * A parameter given twice is refused rather than one of its values silently taken.
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../env.ts';
import { firstIssue } from '../lib/json-body.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { type AuditEntry, type ExportedEntry, redactedOf } from './chain.ts';
import { AuditExportQuerySchema, AuditQuerySchema } from './contract.ts';
import { allEntries, auditPage, EXPORT_SPAN, lastSeq } from './entries.ts';

/** A failure of D1 as the admin API answers it: 503, the operator may try again. */
function storeDown(c: Context<AppEnv>, error: unknown): Response {
  console.error('Audit log not read', error instanceof Error ? error.message : String(error));
  return c.json({ error: 'The audit log is unavailable; try again' }, 503);
}

/**
 * The request's query checked against `schema`: its output, or the refusal naming the parameter —
 * one given twice, one the route does not take (with those it does), or a wrong value.
 */
function queryOf<S extends v.StrictObjectSchema<v.ObjectEntries, undefined>>(
  c: Context<AppEnv>,
  schema: S,
): v.InferOutput<S> | string {
  const given = Object.entries(c.req.queries());
  const twice = given.find(([, values]) => values.length > 1);
  if (twice) return `${twice[0]}: given ${twice[1].length} times; give it once`;
  const known = Object.keys(schema.entries);
  const unknown = given.find(([name]) => !known.includes(name));
  if (unknown) return `${unknown[0]}: not a parameter of this route; it takes ${known.join(', ')}`;
  const query = v.safeParse(schema, c.req.query());
  return query.success ? query.output : firstIssue(query.issues);
}

export const auditRoute = new Hono<AppEnv>();
auditRoute.use(operatorAuth('audit:read'));

auditRoute.get('/', async (c) => {
  const query = queryOf(c, AuditQuerySchema);
  if (typeof query === 'string') return c.json({ error: query }, 400);
  if (query.from !== undefined && query.to !== undefined && query.to <= query.from) {
    return c.json({ error: 'to: must be after from' }, 400);
  }
  try {
    return c.json(await auditPage(c.env.FUNNEL_DB, c.get('app'), query));
  } catch (error) {
    return storeDown(c, error);
  }
});

auditRoute.get('/export', async (c) => {
  const query = queryOf(c, AuditExportQuerySchema);
  if (typeof query === 'string') return c.json({ error: query }, 400);
  // A part of the log by seq: the chain has no gap, so the parts join end to end into the whole.
  const { after } = query;
  const until = Math.min(after + EXPORT_SPAN, Number.MAX_SAFE_INTEGER);
  const app = c.get('app');
  // The admin token is the deployment's own caller (sign-in/operator-auth.ts): the log whole.
  const whole = c.get('operator')?.via === 'token';
  const shown = (entry: AuditEntry): ExportedEntry => (whole || entry.app === app ? entry : redactedOf(entry));
  const entries = allEntries(c.env.FUNNEL_DB, after, until);
  const encoder = new TextEncoder();
  // The first read happens before the answer starts, so a store that is down is a 503, not a cut file.
  let pending: IteratorResult<AuditEntry> | undefined;
  let last: number;
  try {
    last = await lastSeq(c.env.FUNNEL_DB);
    pending = await entries.next();
  } catch (error) {
    return storeDown(c, error);
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await entries.next());
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(shown(next.value))}\n`));
      } catch (error) {
        // Cut short, the file fails `npm run audit:verify` as a bad file (a line cut) or a missing head.
        controller.error(error);
      }
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  const part = after === 0 ? '' : `-after-${after}`;
  return c.body(body, 200, {
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="audit-${day}${part}.ndjson"`,
    ...(last > until ? { Link: `<${new URL(c.req.url).pathname}?after=${until}>; rel="next"` } : {}),
  });
});
