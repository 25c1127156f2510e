/**
 * `/api/a/*` — attribution's API (docs/attribution.md): the page's click beacon, the app's install
 * and open calls, and its events (docs/operators.md); each is announced once as a fact
 * (facts-of.ts, announce.ts) for the funnel, the fraud rules and the webhooks. Every body is bounded (413) and checked (400 with the first problem); every
 * network is rate-limited (429); bots are never recorded; production without `ATTRIBUTION_SALT`
 * answers 503 and the page goes on without attribution.
 */
import { type Context, Hono } from 'hono';
import type * as v from 'valibot';
import { CLICK_IDS_PER_CALL, type ClickIdsAnswer } from '../../shared/attribution.ts';
import type { Consent, ConsentReport } from '../../shared/consent.ts';
import { consentOf } from '../../shared/consent-strings.ts';
import { clientHintsFromHeaders } from '../../shared/device.ts';
import { announce, sceneOf } from '../announce.ts';
import { appSalt } from '../apps/app-keys.ts';
import type { AppEnv } from '../env.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { ATTRIBUTION_BUDGET_MS, messageOf } from '../reliability/budget.ts';
import { settingsOf } from '../settings.ts';
import { createAppLink } from './app-links.ts';
import { issueClickId } from './click-id.ts';
import {
  AppEventRequestSchema,
  AppLinkSchema,
  amountOf,
  ClickSchema,
  type IdentifyInput,
  IdentifySchema,
  InstallSchema,
  MAX_BODY_BYTES,
  OpenSchema,
} from './contract.ts';
import { explainView } from './explanation-schema.ts';
import {
  appDimensions,
  clickAd,
  clickArm,
  clickVisitor,
  eventKey,
  keepRaised,
  tapped,
  withStoreChannel,
} from './facts-of.ts';
import { resolveWithinBudget } from './install-within-budget.ts';
import { networkOf } from './network.ts';
import { rateLimitPerNetwork } from './rate-limit.ts';
import { networkKeys } from './record-click.ts';
import { recordClickWithinBudget } from './record-click-within-budget.ts';
import { installKey, installRecordOf, type ResolvedInstall, resolveOpen } from './resolve-install.ts';
import { noteTestAnswer } from './test-answers.ts';
import { unregisteredTest } from './test-devices.ts';

type Schema =
  | typeof ClickSchema
  | typeof InstallSchema
  | typeof OpenSchema
  | typeof AppEventRequestSchema
  | typeof IdentifySchema
  | typeof AppLinkSchema;

/**
 * The JSON body checked against `schema` and, for the app's calls, naming a configured app
 * (`appData[].package` / `.bundle_id`): its output, or the 400 to answer.
 */
async function readBody<S extends Schema>(c: Context<AppEnv>, schema: S): Promise<v.InferOutput<S> | Response> {
  const body = await readJson(c, schema);
  if (body instanceof Response) return body;
  if ('app' in body && !isConfiguredApp(c, body.app)) {
    return c.json({ error: `app: "${body.app}" is not a configured app` }, 400);
  }
  return body;
}

/** Whether `app` is a package or bundle id of a configured app. */
function isConfiguredApp(c: Context<AppEnv>, app: string): boolean {
  return c.get('config').config.appData.some((item) => item.package === app || item.bundle_id === app);
}

const logFlagsNotKept = (error: unknown) =>
  console.error('Flags not kept', error instanceof Error ? error.message : String(error));

/** Announces that a user signed in on an install, and keeps the flags it raised in the ledger. */
async function identified(c: Context<AppEnv>, ctx: ReturnType<typeof contextOf>, body: IdentifyInput): Promise<void> {
  const [key, install] = await Promise.all([
    installKey(ctx.salt, body.app, body.installId),
    installRecordOf(ctx, body.app, body.installId),
  ]);
  const visitor = await clickVisitor(ctx.env, ctx.app, install?.answer);
  const raised = announce(sceneOf(c), {
    fact: 'user-identified',
    at: ctx.now,
    userId: body.userId,
    key,
    install: install ? { answer: install.answer, test: install.test } : null,
    clickVisitor: visitor,
  });
  await keepRaised(ctx.env, ctx.app, raised, ctx.now);
}

/** Mounted at `/api/a`. */
export const attribution = new Hono<AppEnv>();

attribution.use(jsonBodyLimit(MAX_BODY_BYTES));
attribution.use(async function attributionReady(c, next) {
  c.header('cache-control', 'no-store');
  if (!settingsOf(c.env).attributionSalt)
    return c.json({ error: 'Attribution is not configured (ATTRIBUTION_SALT)' }, 503);
  await next();
});
attribution.use(rateLimitPerNetwork());

/** What every handler reads from the request and the environment. */
function contextOf(c: Context<AppEnv>) {
  const settings = settingsOf(c.env);
  return {
    env: c.env,
    app: c.get('app'),
    salt: appSalt(settings.attributionSalt ?? '', c.get('app')),
    decodeKey: settings.decodeKey,
    now: Date.now(),
    windowMs: c.get('config').config.attribution.window_hours * 60 * 60 * 1000,
    network: networkOf(c.req.header('cf-connecting-ip')),
  };
}

/**
 * Click ids for the page's next taps, signed by the worker (click-id.ts): only a click id the worker
 * issued credits an install without its tap on record (docs/attribution.md, "Which clicks credit").
 */
attribution.get('/click-ids', async (c) => {
  const { salt } = contextOf(c);
  const clickIds = await Promise.all(Array.from({ length: CLICK_IDS_PER_CALL }, () => issueClickId(salt)));
  return c.json({ clickIds } satisfies ClickIdsAnswer);
});

attribution.post('/click', async (c) => {
  const body = await readBody(c, ClickSchema);
  if (body instanceof Response) return body;
  const device = c.get('device');
  // A crawler's "tap" is no visitor's: answered like any other, never recorded.
  if (!device.bot) {
    const ctx = {
      ...contextOf(c),
      device,
      headerHints: clientHintsFromHeaders((n) => c.req.header(n)),
      // The visitor's consent (docs/privacy.md, "Consent"): its tap is no look-alike when it stops the match.
      consent: consentOf(body.consent, c.req.header('sec-gpc')),
    };
    await recordClickWithinBudget(ctx, body, c.executionCtx);
    // Counted on the day of the tap, though its link is looked up after the response.
    const at = Date.now();
    c.executionCtx.waitUntil(tapped(c, body, at).then((fact) => announce(sceneOf(c), fact)));
  }
  return c.body(null, 204);
});

attribution.post('/install', async (c) => {
  const body = await readBody(c, InstallSchema);
  if (body instanceof Response) return body;
  const refused = await unregisteredTest(c, body);
  if (refused) return refused;
  // The install's consent (docs/privacy.md, "Consent"): what it stops, it stops for this install.
  const ctx = { ...contextOf(c), consent: consentOf(body.consent, c.req.header('sec-gpc')) };
  // A retry gets the same answer and is the same install: counted and sent once; a test device's never.
  const settle = ({ answer, first, test, key }: ResolvedInstall) => {
    if (!first || test) return;
    // Counted on the day it was decided; its click's visitor and network are read after the response.
    const at = Date.now();
    const { app, installId, platform, installReferrer: referrer, storeChannel } = body;
    const dims = withStoreChannel(appDimensions(c, answer, platform), storeChannel);
    const fact = Promise.all([
      // Within attribution's budget: an install is counted and sent whatever its ledger does.
      withinBudget(clickVisitor(ctx.env, ctx.app, answer), ATTRIBUTION_BUDGET_MS).catch(() => ''),
      ctx.network ? networkKeys(ctx.salt, ctx.network).then((keys) => keys.bucket) : '',
      withinBudget(clickArm(ctx.env, ctx.app, answer), ATTRIBUTION_BUDGET_MS).catch(() => null),
      // The tap's ad click goes to the conversions listener only as the install's consent allows.
      withinBudget(clickAd(ctx.env, ctx.app, answer), ATTRIBUTION_BUDGET_MS).catch(() => null),
    ]).then(([visitor, networkBucket, arm, ad]) =>
      announce(sceneOf(c), {
        fact: 'install-decided',
        at,
        app,
        installId,
        key,
        answer,
        dims: arm ? { ...dims, ...arm } : dims,
        platform,
        referrer,
        launchedAt: ctx.now,
        clickVisitor: visitor,
        network: ctx.network,
        networkBucket,
        consent: ctx.consent,
        ad,
      }),
    );
    // Flags are the operator's (docs/fraud.md): decided after the response, never in the answer.
    c.executionCtx.waitUntil(keepRaised(ctx.env, ctx.app, fact, ctx.now).catch(logFlagsNotKept));
  };
  const { answer, explanation, first } = await resolveWithinBudget(ctx, body, c.executionCtx, settle);
  if (!body.test) return c.json(answer);
  const { app, platform, installId } = body;
  noteTestAnswer(c, ctx.salt, { kind: 'install', app, platform, installId, answer, explanation, repeat: !first });
  return c.json({ ...answer, explain: explainView(explanation) });
});

/**
 * The consent an open or an app event carries, when the app sent one (its `consent`, or `Sec-GPC`):
 * given after the install, it may withdraw sends to third parties the install allowed (docs/privacy.md,
 * "Consent"). None sent is none: an event without it changes nothing.
 */
function laterConsent(c: Context<AppEnv>, report: ConsentReport | undefined): { consent?: Consent } {
  const gpc = c.req.header('sec-gpc');
  return report === undefined && gpc === undefined ? {} : { consent: consentOf(report, gpc) };
}

attribution.post('/open', async (c) => {
  const body = await readBody(c, OpenSchema);
  if (body instanceof Response) return body;
  const refused = await unregisteredTest(c, body);
  if (refused) return refused;
  const ctx = contextOf(c);
  const { answer, explanation } = await resolveOpen(ctx, body);
  if (!body.test) {
    // Counted under its install's key, hashed after the response: an install's opens are bounded a day
    // (docs/operators.md#bounds).
    const { app, installId } = body;
    const dims = appDimensions(c, answer);
    c.executionCtx.waitUntil(
      installKey(ctx.salt, app, installId).then((key) =>
        announce(sceneOf(c), {
          fact: 'open-decided',
          at: ctx.now,
          app,
          installId,
          key,
          answer,
          dims,
          ...laterConsent(c, body.consent),
        }),
      ),
    );
    return c.json(answer);
  }
  const { app, installId } = body;
  noteTestAnswer(c, ctx.salt, { kind: 'open', app, platform: '', installId, answer, explanation, repeat: false });
  return c.json({ ...answer, explain: explainView(explanation) });
});

attribution.post('/event', async (c) => {
  const body = await readBody(c, AppEventRequestSchema);
  if (body instanceof Response) return body;
  const ctx = contextOf(c);
  // Without its storage in time, the events are counted without the install's campaign (docs/reliability.md).
  const install = await withinBudget(installRecordOf(ctx, body.app, body.installId), ATTRIBUTION_BUDGET_MS).catch(
    (error: unknown) => {
      console.error('Events counted without their install', messageOf(error));
      return null;
    },
  );
  // A test device's events are no more the operator's figures than its install.
  if (install?.test) return c.body(null, 204);
  const events = 'events' in body ? body.events : [body];
  // An event with an id is one funnel message and one webhook however often it arrives: the consumers
  // count and send an id once.
  const answer = install?.answer ?? null;
  const [key, ids, arm, ad] = await Promise.all([
    installKey(ctx.salt, body.app, body.installId),
    Promise.all(events.map((event) => (event.id ? eventKey(ctx.salt, body.app, body.installId, event.id) : undefined))),
    // The variant its install counted under (docs/smart-links.md), within the same budget.
    withinBudget(clickArm(ctx.env, ctx.app, answer), ATTRIBUTION_BUDGET_MS).catch(() => null),
    // Its tap's ad click, for the conversions (docs/conversions.md), within the same budget.
    withinBudget(clickAd(ctx.env, ctx.app, answer), ATTRIBUTION_BUDGET_MS).catch(() => null),
  ]);
  const dims = arm ? { ...appDimensions(c, answer), ...arm } : appDimensions(c, answer);
  const scene = sceneOf(c);
  // The app and the install bound the names and the day's count (docs/operators.md#bounds).
  const call = { app: body.app, installId: body.installId, key, answer, dims, ad, ...laterConsent(c, body.consent) };
  const now = Date.now();
  events.forEach(({ name, value, currency, at }, index) => {
    // Revenue in whole minor units (docs/operators.md#revenue); the contract refused any value that is none.
    const money = currency === undefined ? {} : { currency, amount: amountOf({ value, currency }) ?? 0 };
    // Sent late by an app that was offline (docs/attribution.md): a moment past the worker's clock is now.
    const happened = at === undefined || at >= now ? {} : { happened: at };
    announce(scene, { fact: 'app-event', at: now, ...call, name, value, ...money, id: ids[index], ...happened });
  });
  return c.body(null, 204);
});

attribution.post('/identify', async (c) => {
  const body = await readBody(c, IdentifySchema);
  if (body instanceof Response) return body;
  const ctx = contextOf(c);
  // Kept and checked after the response: the app never waits for the operator's rules.
  c.executionCtx.waitUntil(identified(c, ctx, body).catch(logFlagsNotKept));
  return c.body(null, 204);
});

// An invite link for the install's signed-in user (app-links.ts): the app's one write of a short link.
attribution.post('/links', async (c) => {
  const body = await readBody(c, AppLinkSchema);
  if (body instanceof Response) return body;
  return createAppLink(c, body, contextOf(c).salt);
});

attribution.on(
  ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'],
  ['/click', '/install', '/open', '/event', '/identify', '/links'],
  (c) => c.json({ error: 'Method Not Allowed' }, 405, { allow: 'POST' }),
);
attribution.on(['POST', 'PUT', 'DELETE', 'PATCH'], '/click-ids', (c) =>
  c.json({ error: 'Method Not Allowed' }, 405, { allow: 'GET' }),
);
