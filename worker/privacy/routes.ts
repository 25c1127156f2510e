/**
 * The privacy API (docs/privacy.md#requests-erasure-and-access), per app (`c.get('app')`), in the
 * shape of OpenDSR:
 * - `POST /api/privacy/requests` takes an erasure or access request for one subject (`privacy:write`,
 *   an admin's): 201 with its id, when it was received and by when it will be done;
 * - `GET /api/privacy/requests` lists the app's requests; `GET /api/privacy/requests/<id>` one, its
 *   status and, once completed, its signed receipt; `GET …/<id>/data` what is kept about an access
 *   request's subject, as JSON; `DELETE …/<id>` cancels a pending one (`privacy:read`/`privacy:write`);
 * - `GET /api/privacy/receipt-key`, public: the Ed25519 key receipts are checked with.
 * One app's caller reads and asks only about its own app's subjects: every row and hash is the app's.
 */
import { type Context, Hono } from 'hono';
import { COMPLETION_MS, OPENDSR_VERSION, type PrivacyData, PrivacyRequestSchema } from '../../shared/privacy.ts';
import type { AppEnv } from '../env.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { checkEndpointUrl } from '../webhooks/endpoint-url.ts';
import { newSecret } from '../webhooks/signing.ts';
import type { PrivacyMessage } from './process.ts';
import { receiptPublicKey } from './receipt.ts';
import { cancelRequest, insertRequest, keysOf, listRequests, requestOf, statusOf } from './requests.ts';
import { subjectPass } from './stores.ts';
import { subjectDigest, subjectKeysOf } from './subject.ts';

const MAX_BODY = 8192;
const ID = '{[0-9a-f-]{36}}';

/** The requests' path in the app, as its callers reach it (`/@pebble/api/privacy/requests`). */
const baseOf = (c: Context<AppEnv>): string => `${c.get('appBase')}/api/privacy/requests`;

export const privacyRoute = new Hono<AppEnv>();

privacyRoute.get('/receipt-key', async (c) => {
  const key = settingsOf(c.env).privacyReceiptKey;
  if (!key) return c.json({ error: 'PRIVACY_RECEIPT_KEY is not set' }, 503);
  return c.json(await receiptPublicKey(key), 200, { 'Cache-Control': 'public, max-age=300' });
});

privacyRoute.use('/requests', operatorAuth('privacy'));
privacyRoute.use('/requests/*', operatorAuth('privacy'));

privacyRoute.post('/requests', jsonBodyLimit(MAX_BODY), async (c) => {
  const body = await readJson(c, PrivacyRequestSchema);
  if (body instanceof Response) return body;
  const { env: mode } = settingsOf(c.env);
  const urls: string[] = [];
  for (const [at, url] of (body.status_callback_urls ?? []).entries()) {
    const checked = checkEndpointUrl(url, mode);
    if (!checked.ok) return c.json({ error: `status_callback_urls.${at}: ${checked.reason}` }, 400);
    urls.push(checked.url);
  }
  const app = c.get('app');
  const keys = await subjectKeysOf(c.env, app, body);
  if ('field' in keys) return c.json({ error: `${keys.field}: ${keys.reason}` }, 400);
  const [identity] = body.subject_identities;
  if (!identity) return c.json({ error: 'subject_identities: must hold exactly one identity' }, 400);
  const now = Date.now();
  const id = body.subject_request_id ?? crypto.randomUUID();
  const secret = urls.length > 0 ? newSecret() : null;
  const row = {
    app,
    id,
    type: body.subject_request_type,
    identity_type: identity.identity_type,
    subject_keys: JSON.stringify(keys),
    subject_digest: await subjectDigest(identity.identity_type, keys),
    status: 'pending' as const,
    submitted_at: Date.parse(body.submitted_time),
    received_at: now,
    expected_at: now + COMPLETION_MS,
    completed_at: null,
    callback_urls: JSON.stringify(urls),
    callback_secret: secret,
    actor: c.get('operator')?.actor ?? 'unknown',
    receipt: null,
  };
  if (!(await insertRequest(c.env.FUNNEL_DB, row))) {
    return c.json({ error: 'subject_request_id: this app already has a request of that id' }, 409);
  }
  // The cron queues it again within the hour should this send be lost (process.ts).
  await c.env.PRIVACY_QUEUE.send({ k: 'request', app, id } satisfies PrivacyMessage).catch((error: unknown) => {
    console.error('Privacy request not queued', error instanceof Error ? error.message : String(error));
  });
  return c.json(
    {
      subject_request_id: id,
      received_time: new Date(now).toISOString(),
      expected_completion_time: new Date(row.expected_at).toISOString(),
      api_version: OPENDSR_VERSION,
      callback_secret: secret,
    },
    201,
  );
});

privacyRoute.get('/requests', async (c) => {
  const rows = await listRequests(c.env.FUNNEL_DB, c.get('app'), 100);
  return c.json({ requests: rows.map((row) => statusOf(row, baseOf(c))) });
});

privacyRoute.get(`/requests/:id${ID}`, async (c) => {
  const row = await requestOf(c.env.FUNNEL_DB, c.get('app'), c.req.param('id'));
  if (!row) return c.json({ error: 'id: no such request in this app' }, 404);
  return c.json(statusOf(row, baseOf(c)));
});

privacyRoute.get(`/requests/:id${ID}/data`, async (c) => {
  const row = await requestOf(c.env.FUNNEL_DB, c.get('app'), c.req.param('id'));
  if (!row) return c.json({ error: 'id: no such request in this app' }, 404);
  const keys = keysOf(row);
  if (row.type !== 'access' || !keys) return c.json({ error: 'id: not an access request' }, 409);
  const pass = await subjectPass(c.env, row.app, keys, false, Date.now());
  return c.json({
    subject_request_id: row.id,
    identity_type: row.identity_type,
    data: pass.found,
  } satisfies PrivacyData);
});

privacyRoute.delete(`/requests/:id${ID}`, async (c) => {
  const app = c.get('app');
  const id = c.req.param('id');
  if (await cancelRequest(c.env.FUNNEL_DB, app, id)) return c.body(null, 204);
  const row = await requestOf(c.env.FUNNEL_DB, app, id);
  if (!row) return c.json({ error: 'id: no such request in this app' }, 404);
  return c.json({ error: `id: the request is ${row.status}; only a pending one can be cancelled` }, 409);
});
