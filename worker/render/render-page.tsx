/**
 * Server rendering (docs/routes.md): React Router's static handler resolves the route (lazy screens,
 * loaders, redirects, errors), then React streams the document. The status is decided before the
 * first byte: a screen that throws while the shell renders yields the 500 page, never a cut 200.
 * Bots wait for the whole document; where a person would see an error, a bot gets the metadata page.
 * A page rendered before from the same inputs is answered from this isolate's page cache (page-cache.ts),
 * else from the one every isolate of the location shares (location-pages.ts), else it is rendered.
 * A person's view of a counted page is sent to the funnel once its response is decided, kept pages
 * included, after the response (render/count-view.ts).
 */
import type { Context } from 'hono';
import { preinit, preloadModule } from 'react-dom';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { App } from '../../client/app/app.tsx';
import { serializeHydration } from '../../client/app/hydration.ts';
import { routeContext } from '../../client/app/route-context.ts';
import type { RouteHandle } from '../../client/app/route-handle.ts';
import { routes } from '../../client/app/routes.tsx';
import { ErrorScreen } from '../../client/app/shell/error-page.tsx';
import { type Handoff, serializeHandoff } from '../../shared/handoff.ts';
import { appLinkRedirect } from '../app-links/app-link-fallback.ts';
import { readShortLink } from '../campaign/short-link.ts';
import type { AppEnv } from '../env.ts';
import { complete, newNonce } from '../lib/headers.ts';
import { pageOf } from '../lib/page-of.ts';
import { pageView } from '../lib/visit.ts';
import { type PageAssets, pageAssets } from './assets.ts';
import { countView } from './count-view.ts';
import { handoffInputs, makeHandoff } from './handoff.ts';
import { locationKey, locationPage, shareWithLocation } from './location-pages.ts';
import { metaPageHtml } from './meta-page.ts';
import { adoptPage, type KeptPage, keepDocument, keepPage, keptPage, pageId, pageKey } from './page-cache.ts';
import { nonceFreeHeaders, PAGE_HEADERS, pageHeaders, sharedPage, timing } from './page-headers.ts';
import { renderComplete } from './render-complete.ts';

const handler = createStaticHandler(routes);

/** A complete HTML response (lib/headers.ts): no middleware adds headers to it. */
function html(body: BodyInit, status: number, headers: HeadersInit = pageHeaders()): Response {
  return complete(new Response(body, { status, headers }));
}

/**
 * Server-only: hoists the page's stylesheets and screen chunks into <head>. Renders nothing. The entry
 * comes first: the streaming renderer links it itself (this call is then a no-op), a render to a
 * string needs the link in its place (render-complete.ts).
 */
function Preload({ assets }: { assets: PageAssets }) {
  preloadModule(assets.entry, { as: 'script' });
  for (const href of assets.styles) preinit(href, { as: 'style', precedence: 'default' });
  for (const href of assets.modules) preloadModule(href, { as: 'script' });
  return null;
}

/**
 * The page for `c`'s URL. A bot never gets an error page (docs/routes.md): wherever a person would
 * get one — a route's 404, a failed render, a kept error page — a bot gets the metadata page.
 */
export async function renderPage(c: Context<AppEnv>): Promise<Response> {
  const response = await pageResponse(c);
  if (!c.get('device').bot || response.status < 400) return response;
  await response.body?.cancel();
  return html(metaPageHtml(new URL(c.req.url).origin, c.get('language'), c.get('config').config), 200);
}

/** The kept page for what this request renders, else a new render (kept once complete). */
async function pageResponse(c: Context<AppEnv>): Promise<Response> {
  const url = new URL(c.req.url);
  const { page, slug } = pageOf(c);
  // An app link Lander has no page for goes to the campaign page (docs/screens.md).
  const redirect = page === 'not-found' ? appLinkRedirect(c) : null;
  if (redirect) return redirect;
  const linkRead = page === 'short' ? await readShortLink(c, slug ?? '') : true;
  const inputs = handoffInputs(c, url, await c.get('apkParents'));
  // A kept page is made from the page's address alone; a page never kept (a 404, the device table)
  // may read the raw URL: the not-found message names the path and query as asked (docs/routes.md).
  // A short link's page made while its link could not be read is not kept either.
  const keepable = inputs.page.page !== 'not-found' && inputs.device === null && linkRead;
  const key = pageKey(inputs);
  const kept = keepable ? keptPage(key) : undefined;
  if (kept) {
    countView(c, kept.view, kept.status);
    return html(kept.body, kept.status, kept.headers);
  }
  const id = pageId(key);
  // Not kept here: perhaps by another isolate of the location (decision 010), kept by this deploy
  // (wrangler.toml binds its version id; a runtime that binds none shares pages with no version).
  const version = { deploy: c.env.CF_VERSION_METADATA?.id ?? '', headers: PAGE_HEADERS };
  const located = keepable ? await locationKey(url.origin, inputs, version) : undefined;
  const found = located === undefined ? undefined : await locationPage(located);
  if (found) {
    adoptPage(key, { ...found, headers: new Headers([...found.headers, timing('hit', id)]) });
    countView(c, found.view, found.status);
    return html(found.body, found.status, [...found.headers, timing('shared', id)]);
  }
  const handoff = makeHandoff(inputs);
  // An unknown or expired short link (campaign/short-link.ts) is no page.
  const notFound = { status: 404, description: `Page not found: ${url.pathname}${url.search}` };
  if (c.get('link') === null) return renderStatic(handoff, notFound);
  const view = pageView(c, inputs.page, handoff.campaign);

  const requestContext = routeContext({ diagnostics: handoff.diagnostics });
  // A kept page's routes see the page's address, not the raw URL: a parameter no page reads cannot reach them.
  const request = !keepable || inputs.url.href === c.req.url ? c.req.raw : new Request(inputs.url, c.req.raw);
  const context = await handler.query(request, { requestContext }).catch((error: unknown) => {
    console.error('Route resolution failed', error);
    return null;
  });
  if (context instanceof Response) return context;

  if (!context) return renderStatic(handoff, notFound);

  const status = context.statusCode;
  const handoffJson = serializeHandoff({ handoff, hydration: serializeHydration(context) });
  const screens = context.matches.flatMap((m) => {
    const chunk = (m.route.handle as RouteHandle | undefined)?.chunk;
    return chunk ? [`client/app/${chunk}.tsx`] : [];
  });
  const assets = pageAssets(screens);
  const router = createStaticRouter(handler.dataRoutes, context);
  // `hydrate={false}`: the router writes no script of its own, so it needs no nonce.
  const document = (
    <App handoff={handoff} handoffJson={handoffJson}>
      <Preload assets={assets} />
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </App>
  );
  const share = async (page: KeptPage | undefined): Promise<void> => {
    if (page && located) await shareWithLocation(located, sharedPage(page));
  };

  // Complete at once (nothing suspends: the routes' data and screens are loaded before the render),
  // the page is rendered to one string (render-complete.ts). It has no inline script, so it needs no
  // nonce: a page that can be kept is answered with the very bytes and headers it is kept with, and
  // the first visitor of a kind gets what every later one gets, `Server-Timing` aside.
  const written = renderComplete(document, assets.entry);
  if (written && keepable) {
    countView(c, view, status);
    const page = keepDocument(key, written(), { status, headers: nonceFreeHeaders('hit', id), view });
    afterResponse(c, share(page));
    return html(page.body, status, nonceFreeHeaders('miss', id));
  }
  // This response's own, for a page never kept (on the entry's tags) and for one that streams (also on
  // React's inline scripts of a boundary that resolves late); a kept page goes without (page-cache.ts).
  const nonce = newNonce();
  if (written) {
    countView(c, view, status);
    return html(written(nonce), status, pageHeaders(nonce));
  }

  const timed = keepable ? { state: 'miss' as const, id } : undefined;
  let degraded = false;
  try {
    const stream = await renderToReadableStream(document, {
      nonce,
      bootstrapModules: [assets.entry],
      signal: c.req.raw.signal,
      // Errors after the shell (inside a boundary) degrade in the page; the status is already sent.
      onError(error) {
        degraded = true;
        console.error('Render error', error);
      },
    });
    // Bots wait for the whole document (docs/routes.md).
    if (inputs.verdict.bot) await stream.allReady;
    countView(c, view, status);
    // A degraded page is not kept, nor a page made from the raw URL or this visitor's own detection.
    const keep = async (source: ReadableStream<Uint8Array> | string): Promise<void> => {
      if (degraded || !keepable) return typeof source === 'string' ? undefined : source.cancel();
      await share(await keepPage(key, source, nonce, { status, headers: nonceFreeHeaders('hit', id), view }));
    };
    // Complete once the shell is (a late boundary that settled at once): read once, answered and kept
    // from the same text. Otherwise one copy streams to the visitor, the other is kept once complete.
    if (await isSettled(stream.allReady)) {
      const streamed = await new Response(stream).text();
      afterResponse(c, keep(streamed));
      return html(streamed, status, pageHeaders(nonce, timed));
    }
    const [body, copy] = stream.tee();
    afterResponse(
      c,
      stream.allReady.then(() => keep(copy)),
    );
    return html(body, status, pageHeaders(nonce, timed));
  } catch (error) {
    console.error('Page render failed', error);
    return renderStatic(handoff, { status: 500 });
  }
}

/** Runs `work` (keeping a page) after the response; a failure is logged, never the page's. */
function afterResponse(c: Context<AppEnv>, work: Promise<void>): void {
  c.executionCtx.waitUntil(work.catch((error: unknown) => console.error('Page cache', error)));
}

/** Whether `promise` has settled already: its callbacks run before those of a promise resolved now. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const now = Symbol('now');
  const first = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    Promise.resolve(now).then((value) => value),
  ]);
  return first !== now;
}

/** An error page with no client script: used when the routed render itself failed. */
async function renderStatic(handoff: Handoff, info: { status: number; description?: string }): Promise<Response> {
  const handoffJson = serializeHandoff({
    handoff,
    hydration: { loaderData: {}, actionData: null, errors: null },
  });
  const stream = await renderToReadableStream(
    <App handoff={handoff} handoffJson={handoffJson}>
      <ErrorScreen {...info} />
    </App>,
  );
  await stream.allReady;
  return html(stream, info.status);
}
