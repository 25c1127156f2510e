/**
 * The operators' view of answers (docs/operators.md, docs/attribution.md "Why an answer"), admin only:
 * - `GET /api/test-installs` — test devices' answers with their explanations, newest first;
 * - `GET /api/installs?app=&installId=` — one install's answer and why, from the ledger;
 * - `GET`, `POST /api/test-devices`, `DELETE /api/test-devices/:id` — the registered test devices,
 *   the only installations whose `test: true` is honoured (docs/attribution.md, "Test devices").
 * Neither shows an install id or an address: devices are keyed hashes, explanations are counts.
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { appSalt } from '../apps/app-keys.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import { firstIssue, jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { explainView } from './explanation-schema.ts';
import {
  InstallLookupQuerySchema,
  TEST_DEVICE_ID,
  TestDeviceRequestSchema,
  TestInstallsQuerySchema,
} from './operator-queries.ts';
import { installRecordOf } from './resolve-install.ts';
import { deviceHash, listTestAnswers } from './test-answers.ts';
import { forgetTestDevice, listTestDevices, registerTestDevice } from './test-devices.ts';

/** The query checked by `schema`, or the 400 naming its first problem. */
function queryOf<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): v.InferOutput<S> | Response {
  const result = v.safeParse(schema, c.req.query());
  return result.success ? result.output : c.json({ error: firstIssue(result.issues) }, 400);
}

/** The request's app's key of the salt answers are keyed by (apps/app-keys.ts); production without it keeps no answers to show. */
function saltOf(c: Context<AppEnv>): string | Response {
  const salt = settingsOf(c.env).attributionSalt;
  if (salt === undefined) return c.json({ error: 'Attribution is not configured (ATTRIBUTION_SALT)' }, 503);
  return appSalt(salt, c.get('app'));
}

export const testInstallsRoute = new Hono<AppEnv>();
testInstallsRoute.use(operatorAuth('installs:read'));

testInstallsRoute.get('/', async (c) => {
  const query = queryOf(c, TestInstallsQuerySchema);
  if (query instanceof Response) return query;
  const salt = saltOf(c);
  if (salt instanceof Response) return salt;
  if (query.installId && !query.app) return c.json({ error: 'installId: needs app' }, 400);
  const device = query.app && query.installId ? await deviceHash(salt, query.app, query.installId) : undefined;
  try {
    const installs = await listTestAnswers(c.env.FUNNEL_DB, c.get('app'), {
      limit: query.limit,
      after: query.after,
      app: query.app,
      device,
    });
    return c.json({
      installs: installs.map(({ explanation, ...rest }) => ({ ...rest, explain: explainView(explanation) })),
    });
  } catch (error) {
    console.error('Test answers not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The test answers store is unavailable; try again' }, 503);
  }
});

export const installLookupRoute = new Hono<AppEnv>();
installLookupRoute.use(operatorAuth('installs:read'));

installLookupRoute.get('/', async (c) => {
  const query = queryOf(c, InstallLookupQuerySchema);
  if (query instanceof Response) return query;
  const salt = saltOf(c);
  if (salt instanceof Response) return salt;
  const record = await installRecordOf({ env: c.env, app: c.get('app'), salt }, query.app, query.installId);
  if (!record) return c.json({ error: 'No answer kept for this install (answers are kept 30 days)' }, 404);
  return c.json({
    answer: record.answer,
    test: record.test,
    answeredAt: record.at === null ? null : new Date(record.at).toISOString(),
    explain: explainView(record.explanation),
    flags: record.flags,
  });
});

/** A failure of D1 as the admin API answers it: 503, the operator may try again. */
function storeDown(c: Context<AppEnv>, error: unknown): Response {
  console.error('Test devices store failed', error instanceof Error ? error.message : String(error));
  return c.json({ error: 'The test devices store is unavailable; try again' }, 503);
}

export const testDevicesRoute = new Hono<AppEnv>();
testDevicesRoute.use(operatorAuth('test-devices'));

testDevicesRoute.get('/', async (c) => {
  try {
    return c.json({ devices: await listTestDevices(c.env.FUNNEL_DB, c.get('app')) });
  } catch (error) {
    return storeDown(c, error);
  }
});

testDevicesRoute.post('/', jsonBodyLimit(1024), async (c) => {
  const body = await readJson(c, TestDeviceRequestSchema);
  if (body instanceof Response) return body;
  const salt = saltOf(c);
  if (salt instanceof Response) return salt;
  const apps = c.get('config').config.appData;
  if (!apps.some((item) => item.package === body.app || item.bundle_id === body.app)) {
    return c.json({ error: `app: "${body.app}" is not a configured app` }, 400);
  }
  try {
    const made = await registerTestDevice(c.env.FUNNEL_DB, c.get('app'), salt, body, Date.now(), committerOf(c));
    if ('full' in made) return c.json({ error: 'Too many test devices: forget one first' }, 409);
    return c.json(made.device, made.created ? 201 : 200);
  } catch (error) {
    return storeDown(c, error);
  }
});

testDevicesRoute.delete(`/:id{${TEST_DEVICE_ID}}`, async (c) => {
  try {
    const forgotten = await forgetTestDevice(c.env.FUNNEL_DB, c.get('app'), Number(c.req.param('id')), committerOf(c));
    return forgotten ? c.body(null, 204) : c.json({ error: 'id: no such test device' }, 404);
  } catch (error) {
    return storeDown(c, error);
  }
});
