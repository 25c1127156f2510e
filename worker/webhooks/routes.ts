/**
 * `/api/webhooks` — the admin API of webhooks (docs/webhooks.md#admin-api), behind the same sign-in
 * as `/api/links`: list, create (the secret shown once), change, delete, rotate the secret (shown
 * once; the old one signs beside it for a day), send a test, read the delivery log, resend one
 * message or a time range.
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  type AttemptView,
  EndpointCreateSchema,
  EndpointUpdateSchema,
  ResendSchema,
  type WebhookEventType,
} from '../../shared/webhooks.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import { AttemptsQuerySchema } from '../lib/attempts-query.ts';
import { firstIssue, jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { attemptDelivery } from './deliver.ts';
import { logTestAttempt, recentAttempts } from './delivery-log.ts';
import { checkEndpointUrl } from './endpoint-url.ts';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryCounts,
  ENDPOINT_ID,
  endpointView,
  getEndpoint,
  listEndpoints,
  previousSecretAt,
  rotateSecret,
  type StoredEndpoint,
  updateEndpoint,
} from './endpoints.ts';
import { webhookId } from './messages.ts';
import { resendOne, resendRange } from './resend.ts';
import { resolvedProblem } from './resolve-host.ts';
import { installJoinKey } from './send-facts.ts';

const MAX_BODY = 8_192;

export const webhooksRoute = new Hono<AppEnv>();

/**
 * `GET /api/webhooks/install-key`: the key of this app's install hashes, for the app's backend that
 * joins installs to its users (docs/webhooks.md#joining-an-install-to-a-user). A key, so it needs
 * `webhooks:write` like an endpoint's secret, though it is read: registered before the area's own
 * check, which would ask a read for `webhooks:read`.
 */
webhooksRoute.get('/install-key', operatorAuth('webhooks:write'), async (c) => {
  const installKey = await installJoinKey(c.env, c.get('app'));
  if (!installKey) return c.json({ error: 'ATTRIBUTION_SALT is not set: installs carry no hash' }, 503);
  return c.json({ installKey });
});

webhooksRoute.use(operatorAuth('webhooks'));
webhooksRoute.use(jsonBodyLimit(MAX_BODY));

/**
 * `url` checked for this environment (docs/webhooks.md#safety): the normalised URL, or the 400 to
 * answer. Production also checks what its name resolves to.
 */
async function checkedUrl(c: Context<AppEnv>, url: string): Promise<string | Response> {
  const settings = settingsOf(c.env);
  const checked = checkEndpointUrl(url, settings.env);
  if (!checked.ok) return c.json({ error: `url: ${checked.reason}` }, 400);
  if (settings.env === 'production') {
    const problem = await resolvedProblem(new URL(checked.url).hostname, settings.webhookResolver);
    if (problem) return c.json({ error: `url: ${problem.reason}` }, 400);
  }
  return checked.url;
}

/** The refusal of a URL another endpoint already has (docs/webhooks.md#endpoints). */
const urlTaken = (url: string): string => `url: another endpoint already has ${url}`;

/** The endpoint the path names, or the 404 to answer. */
async function endpointOf(c: Context<AppEnv>): Promise<StoredEndpoint | Response> {
  const id = c.req.param('id') ?? '';
  const endpoint = ENDPOINT_ID.test(id) ? await getEndpoint(c.env.FUNNEL_DB, c.get('app'), id) : null;
  return endpoint ?? c.json({ error: `No webhook endpoint ${JSON.stringify(id.slice(0, 40))}` }, 404);
}

webhooksRoute.get('/', async (c) => {
  const [endpoints, counts] = await Promise.all([
    listEndpoints(c.env.FUNNEL_DB, c.get('app')),
    deliveryCounts(c.env.FUNNEL_DB, c.get('app')),
  ]);
  return c.json({ endpoints: endpoints.map((endpoint) => endpointView(endpoint, counts.get(endpoint.id))) });
});

webhooksRoute.post('/', async (c) => {
  const body = await readJson(c, EndpointCreateSchema);
  if (body instanceof Response) return body;
  const url = await checkedUrl(c, body.url);
  if (url instanceof Response) return url;
  const made = await createEndpoint(c.env.FUNNEL_DB, c.get('app'), { ...body, url }, committerOf(c));
  if (!made) return c.json({ error: urlTaken(url) }, 409);
  return c.json(made, 201);
});

webhooksRoute.get('/:id', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  return c.json(endpointView(endpoint, (await deliveryCounts(c.env.FUNNEL_DB, c.get('app'))).get(endpoint.id)));
});

webhooksRoute.patch('/:id', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  const body = await readJson(c, EndpointUpdateSchema);
  if (body instanceof Response) return body;
  const url = body.url === undefined ? undefined : await checkedUrl(c, body.url);
  if (url instanceof Response) return url;
  const next = await updateEndpoint(c.env.FUNNEL_DB, endpoint, { ...body, ...(url ? { url } : {}) }, committerOf(c));
  if (!next) return c.json({ error: urlTaken(url ?? endpoint.url) }, 409);
  return c.json(endpointView(next, (await deliveryCounts(c.env.FUNNEL_DB, c.get('app'))).get(endpoint.id)));
});

webhooksRoute.delete('/:id', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  await deleteEndpoint(c.env.FUNNEL_DB, endpoint, committerOf(c));
  return c.body(null, 204);
});

webhooksRoute.post('/:id/rotate', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  const rotated = await rotateSecret(c.env.FUNNEL_DB, endpoint, committerOf(c));
  const counts = (await deliveryCounts(c.env.FUNNEL_DB, c.get('app'))).get(endpoint.id);
  return c.json({ endpoint: endpointView(rotated, counts), secret: rotated.secret });
});

webhooksRoute.post('/:id/test', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  const id = `test_${crypto.randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: { endpoint: endpoint.id } });
  const { url, secret } = endpoint;
  const target = { url, secret, previousSecret: previousSecretAt(endpoint), id: webhookId(id), body };
  const { env: mode, webhookResolver: resolver } = settingsOf(c.env);
  const { verdict, status, latencyMs, error } = await attemptDelivery(target, mode, { resolver });
  await logTestAttempt(c.env.FUNNEL_DB, endpoint, id, { status, latencyMs, error });
  return c.json({ id: webhookId(id), delivered: verdict === 'delivered', status, latencyMs, error });
});

webhooksRoute.get('/:id/attempts', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  const query = v.safeParse(AttemptsQuerySchema, c.req.query());
  if (!query.success) return c.json({ error: firstIssue(query.issues) }, 400);
  const rows = await recentAttempts(c.env.FUNNEL_DB, endpoint.id, query.output.limit ?? 50);
  const attempts: AttemptView[] = rows.map((row) => ({
    id: webhookId(row.event_id),
    type: row.type as WebhookEventType | 'test',
    attempt: row.attempt,
    at: new Date(row.at).toISOString(),
    status: row.status,
    latencyMs: row.latency_ms,
    error: row.error,
    retryInSeconds: row.retry_in,
  }));
  return c.json({ attempts });
});

webhooksRoute.post('/:id/resend', async (c) => {
  const endpoint = await endpointOf(c);
  if (endpoint instanceof Response) return endpoint;
  const body = await readJson(c, ResendSchema);
  if (body instanceof Response) return body;
  if (!endpoint.enabled) return c.json({ error: 'enabled: the endpoint is disabled; enable it first' }, 409);
  if ('id' in body) {
    const resent = await resendOne(c.env, endpoint, body.id);
    return resent ? c.json({ resent }, 202) : c.json({ error: `id: no message ${body.id} to this endpoint` }, 404);
  }
  if (body.to < body.from) return c.json({ error: 'to: must not be before from' }, 400);
  return c.json({ resent: await resendRange(c.env, endpoint, body.from, body.to) }, 202);
});
