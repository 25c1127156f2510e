/**
 * The audit log's admin API (docs/operators.md#audit-log), behind the operators' sign-in:
 * - `GET /api/audit` — a page of entries, newest first, filterable by kind, actor, target and time;
 * - `GET /api/audit/export` — every entry in order as NDJSON, the file `npm run audit:verify` checks.
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../env.ts';
import { firstIssue } from '../lib/json-body.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import type { AuditEntry } from './chain.ts';
import { AuditQuerySchema } from './contract.ts';
import { allEntries, auditPage } from './entries.ts';

/** A failure of D1 as the admin API answers it: 503, the operator may try again. */
function storeDown(c: Context<AppEnv>, error: unknown): Response {
  console.error('Audit log not read', error instanceof Error ? error.message : String(error));
  return c.json({ error: 'The audit log is unavailable; try again' }, 503);
}

export const auditRoute = new Hono<AppEnv>();
auditRoute.use(operatorAuth('audit:read'));

auditRoute.get('/', async (c) => {
  const query = v.safeParse(AuditQuerySchema, c.req.query());
  if (!query.success) return c.json({ error: firstIssue(query.issues) }, 400);
  if (query.output.from !== undefined && query.output.to !== undefined && query.output.to <= query.output.from) {
    return c.json({ error: 'to: must be after from' }, 400);
  }
  try {
    return c.json(await auditPage(c.env.FUNNEL_DB, query.output));
  } catch (error) {
    return storeDown(c, error);
  }
});

auditRoute.get('/export', async (c) => {
  const entries = allEntries(c.env.FUNNEL_DB);
  const encoder = new TextEncoder();
  // The first read happens before the answer starts, so a store that is down is a 503, not a cut file.
  let pending: IteratorResult<AuditEntry> | undefined;
  try {
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
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      } catch (error) {
        // Cut short, the file fails `npm run audit:verify` as a bad file (a line cut) or a missing head.
        controller.error(error);
      }
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return c.body(body, 200, {
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="audit-${day}.ndjson"`,
  });
});
