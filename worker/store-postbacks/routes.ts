/**
 * Developers' copies of Apple's signed attribution postbacks (docs/store-postbacks.md), at the paths
 * Apple posts to on the domain an app names, mounted under `/.well-known` by worker/index.ts:
 * - `POST /.well-known/skadnetwork/report-attribution/` — SKAdNetwork (`NSAdvertisingAttributionReportEndpoint`);
 * - `POST /.well-known/appattribution/report-attribution/` — AdAttributionKit (`AttributionCopyEndpoint`).
 * Each also without its trailing slash. A postback is counted only once its signature verifies with
 * Apple's key: 200 `{ counted: true }`, or `{ counted: false }` for a copy already counted (Apple
 * resends until it gets a 200); 400 `{ error }` for a bad or missing signature or a malformed body,
 * never counted; 503 when the store is down, so Apple sends it again.
 */
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { StorePostbackKind } from '../../shared/store-postbacks.ts';
import type { AppEnv } from '../env.ts';
import { firstIssue, jsonBodyLimit } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { aakPostbackOf, verifyJws } from './aak-jws.ts';
import { keySetOf } from './apple-keys.ts';
import { AakStanzaSchema, MAX_POSTBACK_BYTES, SkanPostbackSchema, type VerifiedPostback } from './contract.ts';
import { isRejection, logRejection, type Rejection, reject } from './rejection.ts';
import { verifySkan } from './skan-signature.ts';
import { keepPostback } from './storage.ts';

/** The body as JSON checked by `schema`, or why it is refused. */
async function bodyOf<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): Promise<v.InferOutput<S> | Rejection> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return reject('not-json', 'body: must be JSON');
  }
  const result = v.safeParse(schema, json);
  return result.success ? result.output : reject('malformed', firstIssue(result.issues));
}

/** The postback a request carries once verified, or its refusal. */
async function verified(c: Context<AppEnv>, kind: StorePostbackKind): Promise<VerifiedPostback | Rejection> {
  const settings = settingsOf(c.env);
  const keys = keySetOf(settings.env, settings.storePostbackKeys);
  if (kind === 'skadnetwork') {
    const postback = await bodyOf(c, SkanPostbackSchema);
    return isRejection(postback) ? postback : verifySkan(postback, keys);
  }
  const stanza = await bodyOf(c, AakStanzaSchema);
  if (isRejection(stanza)) return stanza;
  const jws = stanza['jws-string'];
  if (!jws) return reject('missing-signature', 'jws-string: missing');
  const payload = await verifyJws(jws, keys);
  return isRejection(payload) ? payload : aakPostbackOf(stanza, payload);
}

/** The handler of one framework's endpoint. */
function receive(kind: StorePostbackKind) {
  return async function receivePostback(c: Context<AppEnv>): Promise<Response> {
    c.header('Cache-Control', 'no-store');
    const postback = await verified(c, kind);
    if (isRejection(postback)) {
      logRejection(kind, postback);
      return c.json({ error: postback.error }, 400);
    }
    try {
      return c.json({ counted: await keepPostback(c.env.FUNNEL_DB, c.get('app'), postback) });
    } catch (error) {
      console.error('Store postback not kept', error instanceof Error ? error.message : String(error));
      return c.json({ error: 'The postback store is unavailable; send it again' }, 503);
    }
  };
}

/** Apple's report paths under `/.well-known`, by framework. */
export const REPORT_PATHS: Record<StorePostbackKind, string> = {
  skadnetwork: '/skadnetwork/report-attribution',
  adattributionkit: '/appattribution/report-attribution',
};

export const storePostbacks = new Hono<AppEnv>();

for (const [kind, path] of Object.entries(REPORT_PATHS) as [StorePostbackKind, string][]) {
  storePostbacks.use(path, jsonBodyLimit(MAX_POSTBACK_BYTES));
  storePostbacks.use(`${path}/`, jsonBodyLimit(MAX_POSTBACK_BYTES));
  storePostbacks.post(path, receive(kind));
  storePostbacks.post(`${path}/`, receive(kind));
}
