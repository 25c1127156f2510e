/**
 * Rendering the document of a routed page (docs/routes.md), shaped like React Router's
 * `entry.server`: the request's status and its router context in, the response out. A page that is
 * complete at once is rendered to one string (render-complete.ts); any other streams, bots waiting for
 * the whole of it. A keepable page is kept once complete, in this isolate (page-cache.ts) and with the
 * location (location-pages.ts); the status is decided before the first byte.
 */
import type { Context } from 'hono';
import { preinit, preloadModule } from 'react-dom';
import { renderToReadableStream } from 'react-dom/server';
import {
  createStaticRouter,
  type StaticHandler,
  type StaticHandlerContext,
  StaticRouterProvider,
} from 'react-router-dom';
import { App } from '../../client/app/app.tsx';
import { serializeHydration } from '../../client/app/hydration.ts';
import type { RouteHandle } from '../../client/app/route-handle.ts';
import { type Handoff, serializeHandoff } from '../../shared/handoff.ts';
import type { AppEnv } from '../env.ts';
import { newNonce } from '../lib/headers.ts';
import type { PageView } from '../lib/visit.ts';
import { type PageAssets, pageAssets } from './assets.ts';
import { shareWithLocation } from './location-pages.ts';
import { type KeptPage, keepDocument, keepPage } from './page-cache.ts';
import { html, nonceFreeHeaders, pageHeaders, sharedPage } from './page-headers.ts';
import { renderComplete } from './render-complete.ts';

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

/** Where a rendered page is kept: its key and id, and the location's key it is shared under. */
export interface Keeping {
  key: string;
  id: string;
  located: string;
}

export interface DocumentInput {
  handler: StaticHandler;
  context: StaticHandlerContext;
  handoff: Handoff;
  /** The view the page counts, kept with it for its later answers. */
  view: PageView | null;
  /** Where to keep the page; null for a page never kept. */
  keeping: Keeping | null;
  /** A bot gets the whole document at once (docs/routes.md). */
  bot: boolean;
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

/** The document's response; null when the render itself failed (the caller answers its error page). */
export async function renderDocument(
  c: Context<AppEnv>,
  { handler, context, handoff, view, keeping, bot }: DocumentInput,
): Promise<Response | null> {
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
    if (page && keeping) await shareWithLocation(keeping.located, sharedPage(page));
  };

  // Complete at once (nothing suspends: the routes' data and screens are loaded before the render),
  // the page is rendered to one string (render-complete.ts). It has no inline script, so it needs no
  // nonce: a page that can be kept is answered with the very bytes and headers it is kept with, and
  // the first visitor of a kind gets what every later one gets, `Server-Timing` aside.
  const written = renderComplete(document, assets.entry);
  if (written && keeping) {
    const { key, id } = keeping;
    const page = keepDocument(key, written(), { status, headers: nonceFreeHeaders('hit', id), view });
    afterResponse(c, share(page));
    return html(page.body, status, nonceFreeHeaders('miss', id));
  }
  // This response's own, for a page never kept (on the entry's tags) and for one that streams (also on
  // React's inline scripts of a boundary that resolves late); a kept page goes without (page-cache.ts).
  const nonce = newNonce();
  if (written) return html(written(nonce), status, pageHeaders(nonce));

  const timed = keeping ? { state: 'miss' as const, id: keeping.id } : undefined;
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
    if (bot) await stream.allReady;
    // A degraded page is not kept, nor a page made from the raw URL or this visitor's own detection.
    const keep = async (source: ReadableStream<Uint8Array> | string): Promise<void> => {
      if (degraded || !keeping) return typeof source === 'string' ? undefined : source.cancel();
      const headers = nonceFreeHeaders('hit', keeping.id);
      await share(await keepPage(keeping.key, source, nonce, { status, headers, view }));
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
    return null;
  }
}
