/**
 * Lander's worker (docs/architecture.md): response headers and route rules for every request, the
 * routes that read neither the device nor the configuration, then the operator's configuration, read
 * once, for the routes that read it and the pages; the device is detected only for what reads it (the
 * page's own calls and the pages). Every other path is the server-rendered page (an app link Lander has
 * no page for goes to /landing). Its queue handler counts the funnel's events and delivers webhooks;
 * its cron writes the daily export (docs/webhooks.md) and, hourly, queues again unfinished privacy requests.
 */
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { STAMPED_PATH } from '../shared/apk-parent.ts';
import { routeRules as rules } from '../shared/route-rules.ts';
import { apkParents, startParentsRead } from './apk/parents-loader.ts';
import { apkDownload } from './apk/routes.ts';
import { wellKnown } from './app-links/routes.ts';
import { requestApp } from './apps/request-app.ts';
import { pathWithinApp } from './apps/resolve-app.ts';
import { appsRoute } from './apps/routes.ts';
import { installLookupRoute, testDevicesRoute, testInstallsRoute } from './attribution/operator-routes.ts';
import { attribution } from './attribution/routes.ts';
import { auditRoute } from './audit/routes.ts';
import { builds } from './builds/routes.ts';
import { linkQrRoute, linksRoute } from './campaign/routes.ts';
import { appConfig, startConfigRead } from './config/config-middleware.ts';
import { configuredOnly } from './config/configured-only.ts';
import { configRoute } from './config/routes.ts';
import { conversionsRoute } from './conversions/routes.ts';
import { deviceDetection } from './device/device-detection.ts';
import { deviceRoute } from './device/routes.ts';
import type { AppEnv } from './env.ts';
import { runScheduled } from './exports/scheduled.ts';
import { fraudRoute } from './fraud/routes.ts';
import { cohortsRoute } from './funnel/cohort-routes.ts';
import { statsRoute } from './funnel/routes.ts';
import { trace } from './identity/routes.ts';
import { noindex } from './middleware/noindex.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { routeRules } from './middleware/route-rules.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { PRIVACY_CRON, requeueUnfinished } from './privacy/process.ts';
import { privacyRoute } from './privacy/routes.ts';
import { handleQueue } from './queues.ts';
import { onEngineError } from './reliability/on-error.ts';
import { lossesRoute } from './reliability/routes.ts';
import { linkPasswordPost } from './render/link-gate.ts';
import { renderPage } from './render/render-page.tsx';
import { ruleSetsRoute } from './rules/routes.ts';
import { crossSiteWrites } from './sign-in/cross-site-writes.ts';
import { meRoute } from './sign-in/me-route.ts';
import { signInRoutes } from './sign-in/oidc/routes.ts';
import { storePostbacksRoute } from './store-postbacks/operator-routes.ts';
import { storePostbacks } from './store-postbacks/routes.ts';
import { keysRoute, membersRoute } from './team/routes.ts';
import { experimentsRoute, variantsRoute } from './variants/routes.ts';
import { webhooksRoute } from './webhooks/routes.ts';

// Routes see the app's own path: `/@pebble/landing` is routed as `/landing` (docs/routes.md#apps).
const app = new Hono<AppEnv>({ getPath: (request) => pathWithinApp(getPath(request)) });

app.onError(onEngineError);

app.use(responseHeaders());
// The app the request is for, before anything reads or writes what an app owns; a host or prefix
// of no app is not found here.
app.use(
  requestApp({
    // A page's two reads start before the registry's, so under a slow store the three wait together.
    prefetch: (env, id) => ({ parents: startParentsRead(env, id), config: startConfigRead(env, id) }),
  }),
);
app.use(routeRules({ rules }));

// Every write under /api but the public's is an admin write: JSON only, and same-origin when a cookie signs it in.
app.use('/api/*', crossSiteWrites({ publicApis: ['/api/a', '/api/trace', '/api/device', '/api/health'] }));
// The device and the language are detected only where they are read: the page's own calls (its
// device, its trace, its taps and the app's calls) here, the pages below.
const detectDevice = deviceDetection();
for (const calls of ['/api/device/*', '/api/trace/*', '/api/a/*']) app.use(calls, detectDevice);

// What reads no configuration answers before it is read: a slow store never holds these.
app.get('/api/health', (c) => c.json({ ok: true }));
app.route('/api/device', deviceRoute);
app.route('/api/trace', trace);
app.route('/api/losses', lossesRoute);
app.route('/api/webhooks', webhooksRoute);
app.route('/api/conversions', conversionsRoute);
app.route('/api/test-installs', testInstallsRoute);
app.route('/api/installs', installLookupRoute);
app.route('/api/store-postbacks', storePostbacksRoute);
app.route('/api/audit', auditRoute);
app.route('/api/privacy', privacyRoute);
// The configuration's own API reads KV itself, never the cached copy the pages below are served.
app.route('/api/config', configRoute);
app.route('/api/apps', appsRoute);
app.route('/api/keys', keysRoute);
app.route('/api/members', membersRoute);
app.route('/api/me', meRoute);
app.route('/api', openApiRoutes);
app.route('/assets/builds', builds);
app.route('/s', linkQrRoute);
// The prefix the page's stamped links are built with (shared/apk-parent.ts), without its final slash.
app.route(STAMPED_PATH.slice(0, -1), apkDownload);
// Apple's postbacks: they need none of the configuration.
app.route('/.well-known', storePostbacks);
// Signing in with the deployment's OpenID Connect provider (docs/operators.md#openid-connect).
app.route('/auth', signInRoutes);

// The page's read of the APK parents starts before the configuration's, so both wait together; no
// API call reads the parents.
const readApkParents = apkParents();
app.get('*', (c, next) => (c.req.path.startsWith('/api/') ? next() : readApkParents(c, next)));
// The operator's configuration (docs/config.md), read once per request for everything below: the API
// that reads it and the pages. A store that fails gives the bundled demo, never an error.
app.use(appConfig());
app.route('/api/a', attribution);
app.route('/api/stats', statsRoute);
app.route('/api/cohorts', cohortsRoute);
app.route('/api/fraud', fraudRoute);
// A link's variants and experiment first: their paths only, the links API has the rest.
app.route('/api/links', variantsRoute);
app.route('/api/links', linksRoute);
app.route('/api/experiments', experimentsRoute);
app.route('/api/rule-sets', ruleSetsRoute);
app.route('/api/test-devices', testDevicesRoute);
// The path as it came, percent-encoded: a refusal never carries markup back (docs/security.md).
app.all('/api/*', (c) => c.json({ error: `No API at ${new URL(c.req.url).pathname}` }, 404));
// Production shows no page of the bundled demo: 503 until the operator's configuration is in KV.
app.use(configuredOnly());
app.route('/.well-known', wellKnown);
app.use('/admin', noindex());
app.get('*', detectDevice, renderPage);
// A short link's password form posts to its page (render/link-gate.ts); any other post is refused.
app.post('*', detectDevice, linkPasswordPost, renderPage);
app.all('*', (c) => c.text('Method Not Allowed', 405, { allow: 'GET, HEAD' }));

// The hourly cron queues again the privacy requests not yet done (docs/privacy.md); the daily one exports.
const scheduled = (controller: ScheduledController, env: Env): Promise<void> =>
  controller.cron === PRIVACY_CRON
    ? requeueUnfinished(env, controller.scheduledTime).then(() => undefined)
    : runScheduled(controller, env);

export default { fetch: app.fetch, queue: handleQueue, scheduled } satisfies ExportedHandler<Env>;
// Durable Objects live in the main module (wrangler.toml).
export { ClickBucket } from './attribution/click-bucket.ts';
export { AttributionLedger } from './attribution/ledger.ts';
export { OperatorRateWindow } from './sign-in/rate-window.ts';
