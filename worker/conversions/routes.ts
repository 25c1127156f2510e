/**
 * `/api/conversions/destinations` — the admin API of conversions out (docs/conversions.md#admin-api),
 * behind the sign-in with the `conversions:read` / `conversions:write` scopes: list, add, read, change,
 * remove, send a test event now, and read a destination's delivery log. A token is taken, kept and
 * never answered; each change is kept with its audit entry (without the token).
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  type ConversionTestResult,
  DestinationCreateSchema,
  DestinationUpdateSchema,
} from '../../shared/conversions.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import { AttemptsQuerySchema } from '../lib/attempts-query.ts';
import { firstIssue, jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { recentConversionAttempts } from './deliver.ts';
import {
  auditedOf,
  checkSettings,
  createStatement,
  DESTINATION_ID,
  deleteStatements,
  deliveryCounts,
  destinationView,
  getDestination,
  listDestinations,
  type StoredDestination,
  tokenProblem,
  updateStatement,
} from './destinations.ts';
import { testEvent } from './test-event.ts';

const MAX_BODY = 16_384;

export const conversionsRoute = new Hono<AppEnv>();

conversionsRoute.use(operatorAuth('conversions'));
conversionsRoute.use(jsonBodyLimit(MAX_BODY));

/** The destination the path names, or the 404 to answer. */
async function destinationOf(c: Context<AppEnv>): Promise<StoredDestination | Response> {
  const id = c.req.param('id') ?? '';
  const found = DESTINATION_ID.test(id) ? await getDestination(c.env.FUNNEL_DB, c.get('app'), id) : null;
  return found ?? c.json({ error: `No conversion destination ${JSON.stringify(id.slice(0, 40))}` }, 404);
}

async function viewOf(c: Context<AppEnv>, destination: StoredDestination) {
  const counts = await deliveryCounts(c.env.FUNNEL_DB, [destination.id]);
  return destinationView(destination, counts.get(destination.id) ?? { pending: 0, delivered: 0, failed: 0, dead: 0 });
}

conversionsRoute.get('/destinations', async (c) => {
  const destinations = await listDestinations(c.env.FUNNEL_DB, c.get('app'));
  const counts = await deliveryCounts(
    c.env.FUNNEL_DB,
    destinations.map((destination) => destination.id),
  );
  const empty = { pending: 0, delivered: 0, failed: 0, dead: 0 };
  return c.json({ destinations: destinations.map((d) => destinationView(d, counts.get(d.id) ?? empty)) });
});

conversionsRoute.post('/destinations', async (c) => {
  const body = await readJson(c, DestinationCreateSchema);
  if (body instanceof Response) return body;
  const settings = checkSettings(body.platform, body.settings, settingsOf(c.env).env);
  if (!settings.ok) return c.json({ error: settings.error }, 400);
  const missing = tokenProblem(body.platform, body.token ?? '');
  if (missing) return c.json({ error: missing }, 400);
  const now = Date.now();
  const { statement, id } = createStatement(
    c.env.FUNNEL_DB,
    c.get('app'),
    { ...body, settings: settings.settings },
    now,
  );
  const made: StoredDestination = {
    id,
    app: c.get('app'),
    platform: body.platform,
    name: body.name ?? '',
    settings: settings.settings,
    token: body.token ?? '',
    events: body.events ?? {},
    enabled: body.enabled !== false,
    createdAt: now,
    updatedAt: now,
  };
  await committerOf(c)([statement], {
    kind: 'conversion',
    action: 'created',
    target: id,
    before: null,
    after: auditedOf(made),
  });
  return c.json(await viewOf(c, made), 201);
});

conversionsRoute.get('/destinations/:id', async (c) => {
  const destination = await destinationOf(c);
  if (destination instanceof Response) return destination;
  return c.json(await viewOf(c, destination));
});

conversionsRoute.patch('/destinations/:id', async (c) => {
  const destination = await destinationOf(c);
  if (destination instanceof Response) return destination;
  const body = await readJson(c, DestinationUpdateSchema);
  if (body instanceof Response) return body;
  const settings = body.settings ? checkSettings(destination.platform, body.settings, settingsOf(c.env).env) : null;
  if (settings && !settings.ok) return c.json({ error: settings.error }, 400);
  const now = Date.now();
  const change = { ...body, settings: settings?.ok ? settings.settings : undefined };
  const next: StoredDestination = {
    ...destination,
    name: body.name ?? destination.name,
    settings: change.settings ?? destination.settings,
    token: body.token ?? destination.token,
    events: body.events ?? destination.events,
    enabled: body.enabled ?? destination.enabled,
    updatedAt: now,
  };
  await committerOf(c)([updateStatement(c.env.FUNNEL_DB, destination, change, now)], {
    kind: 'conversion',
    action: 'updated',
    target: destination.id,
    before: auditedOf(destination),
    after: auditedOf(next),
  });
  return c.json(await viewOf(c, next));
});

conversionsRoute.delete('/destinations/:id', async (c) => {
  const destination = await destinationOf(c);
  if (destination instanceof Response) return destination;
  await committerOf(c)(deleteStatements(c.env.FUNNEL_DB, destination), {
    kind: 'conversion',
    action: 'deleted',
    target: destination.id,
    before: auditedOf(destination),
    after: null,
  });
  return c.body(null, 204);
});

conversionsRoute.post('/destinations/:id/test', async (c) => {
  const destination = await destinationOf(c);
  if (destination instanceof Response) return destination;
  const result: ConversionTestResult = await testEvent(c.env, destination);
  return c.json(result);
});

conversionsRoute.get('/destinations/:id/attempts', async (c) => {
  const destination = await destinationOf(c);
  if (destination instanceof Response) return destination;
  const query = v.safeParse(AttemptsQuerySchema, c.req.query());
  if (!query.success) return c.json({ error: firstIssue(query.issues) }, 400);
  return c.json({
    attempts: await recentConversionAttempts(c.env.FUNNEL_DB, destination.id, query.output.limit ?? 50),
  });
});
