/**
 * Lander's worker: security headers, visitor detection, route rules, API routes, then the
 * server-rendered page for every other path (an app link Lander has no page for goes to /landing).
 * Its queue handler counts the funnel's events (docs/operators.md).
 */
import { Hono } from 'hono';
import { STAMPED_PATH } from '../shared/apk-parent.ts';
import { routeRules as rules } from '../shared/route-rules.ts';
import { apkDownload } from './apk/download-route.ts';
import { apkParents } from './apk/parents-loader.ts';
import { installLookupRoute, testInstallsRoute } from './attribution/admin-routes.ts';
import { attribution } from './attribution/routes.ts';
import type { AppEnv } from './env.ts';
import { consumeFunnelBatch } from './funnel/consume-batch.ts';
import { linkQrRoute, linksRoute } from './funnel/links-route.ts';
import { shortLink } from './funnel/short-link.ts';
import { statsRoute } from './funnel/stats-route.ts';
import { appLinkFallback } from './middleware/app-link-fallback.ts';
import { appConfig } from './middleware/config.ts';
import { noindex } from './middleware/noindex.ts';
import { routeRules } from './middleware/route-rules.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { visitor } from './middleware/visitor.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { renderPage } from './render/render-page.tsx';
import { builds } from './routes/builds.ts';
import { deviceRoute } from './routes/device.ts';
import { trace } from './routes/trace.ts';
import { wellKnown } from './routes/well-known.ts';

const app = new Hono<AppEnv>();

app.use(securityHeaders());
app.use(visitor());
app.use(routeRules({ rules }));

app.get('/api/health', (c) => c.json({ ok: true }));
app.route('/api/device', deviceRoute);
app.route('/api/trace', trace);
app.route('/api/a', attribution);
app.route('/api/stats', statsRoute);
app.route('/api/links', linksRoute);
app.route('/api/test-installs', testInstallsRoute);
app.route('/api/installs', installLookupRoute);
app.route('/api', openApiRoutes);
app.all('/api/*', (c) => c.json({ error: `No API at ${c.req.path}` }, 404));
app.route('/assets/builds', builds);
app.route('/s', linkQrRoute);
// The prefix the page's stamped links are built with (shared/apk-parent.ts), without its final slash.
app.route(STAMPED_PATH.slice(0, -1), apkDownload);

// The page's read of the APK parents starts before the configuration's, so both wait together.
app.get('*', apkParents());
app.use(appConfig());
app.route('/.well-known', wellKnown);
app.get('/s/:slug', shortLink());
app.use('/admin', noindex());
app.get('*', appLinkFallback(), renderPage);
app.all('*', (c) => c.text('Method Not Allowed', 405, { allow: 'GET, HEAD' }));

// `request` keeps the app's test entry (app.request) on the default export beside the handlers.
export default { fetch: app.fetch, request: app.request, queue: consumeFunnelBatch } satisfies ExportedHandler<Env> &
  Pick<typeof app, 'request'>;
// Durable Objects live in the main module (wrangler.toml).
export { ClickBucket } from './attribution/click-bucket.ts';
export { AttributionLedger } from './attribution/ledger.ts';
