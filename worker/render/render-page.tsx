/**
 * The page route (docs/routes.md), one way through: a kept page is answered (kept-answer.ts), else
 * React Router's static handler resolves the route (lazy screens, loaders, redirects, errors) and the
 * document is rendered (render-document.tsx); either way the view is counted once, here, after the
 * response is decided (count-view.ts). Where a person would see an error, a bot gets the metadata page.
 */
import type { Context } from 'hono';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler } from 'react-router-dom';
import { App } from '../../client/app/app.tsx';
import { routeContext } from '../../client/app/route-context.ts';
import { routes } from '../../client/app/routes.tsx';
import { ErrorScreen } from '../../client/app/shell/error-page.tsx';
import { type Handoff, serializeHandoff } from '../../shared/handoff.ts';
import { readShortLink } from '../campaign/short-link.ts';
import type { AppEnv } from '../env.ts';
import type { StoredLink } from '../facts.ts';
import { pageOf } from '../lib/page-of.ts';
import { pageView } from '../lib/visit.ts';
import { chooseVariant } from '../variants/choose-variant.ts';
import { appLinkAnswer, carrierLinkAnswer } from './app-link-answer.ts';
import { countView } from './count-view.ts';
import { handoffInputs, makeHandoff, visitCampaign, withBase } from './handoff.ts';
import { keptAnswer, type PageAnswer } from './kept-answer.ts';
import { expiredAnswer, passwordGate } from './link-gate.ts';
import { linkDecision, linkRulesAnswer } from './link-rules.ts';
import { metaPageHtml } from './meta-page.ts';
import { pageKey } from './page-cache.ts';
import { html } from './page-headers.ts';
import { renderDocument } from './render-document.tsx';

// One static handler per app base path (docs/routes.md#apps): '' for an app on its own host, `/@notes`
// under a prefix. The registry bounds how many there are.
const handlers = new Map<string, ReturnType<typeof createStaticHandler>>();

function handlerFor(base: string): ReturnType<typeof createStaticHandler> {
  let handler = handlers.get(base);
  if (!handler) {
    handler = createStaticHandler(routes, base ? { basename: base } : undefined);
    handlers.set(base, handler);
  }
  return handler;
}

/**
 * The page for `c`'s URL, its view counted once here, whether kept or rendered. A bot never gets an
 * error page (docs/routes.md): wherever a person would get one — a route's 404, a failed render, a
 * kept error page — a bot gets the metadata page.
 */
export async function renderPage(c: Context<AppEnv>): Promise<Response> {
  const { response, view } = await pageAnswer(c);
  countView(c, view, response.status);
  const cookie = c.get('visitorCookie');
  if (cookie) response.headers.append('set-cookie', cookie);
  // An expired link's 410 is already the metadata page for a bot (link-gate.ts), and stays a 410.
  if (!c.get('device').bot || response.status < 400 || response.status === 410) return response;
  await response.body?.cancel();
  const { origin } = new URL(c.req.url);
  return html(metaPageHtml(origin, c.get('language'), c.get('config').config, c.get('appBase') ?? ''), 200);
}

/** The kept page for what this request renders, else a new render (kept once complete). */
async function pageAnswer(c: Context<AppEnv>): Promise<PageAnswer> {
  const url = new URL(c.req.url);
  const { page, slug, carrier } = pageOf(c);
  // An app link Lander has no page for goes to the device's download or the campaign page (docs/screens.md).
  const redirect =
    page === 'not-found' ? appLinkAnswer(c) : page === 'carrier' && carrier ? carrierLinkAnswer(c, carrier) : null;
  if (redirect) return { response: redirect, view: null };
  const linkState = page === 'short' ? await readShortLink(c, slug ?? '') : 'read';
  // An expired link says so; a link with a password asks for it before anything, its rules included.
  if (linkState === 'expired') return { response: expiredAnswer(c), view: null };
  const protectedLink = c.get('link')?.hasPassword === true;
  const gate = protectedLink ? await passwordGate(c, c.get('link') as StoredLink) : null;
  if (gate) return { response: gate, view: null };
  // The link's rules, or its token's rule set, decide before its page whether there is one (docs/smart-links.md).
  const decision = await linkDecision(c);
  const ruled = linkRulesAnswer(c, decision);
  if (ruled) return { response: ruled, view: null };
  // A `page` rule may name the variant to show (docs/smart-links.md#actions); else the visitor's own.
  const named = decision?.action.action === 'page' ? decision.action.variant : undefined;
  if (c.get('link')) await chooseVariant(c, named);
  const inputs = handoffInputs(c, url, await c.get('apkParents'));
  // A kept page is made from the page's address alone; a page never kept (a 404, the device table)
  // may read the raw URL: the not-found message names the path and query as asked (docs/routes.md).
  // A short link's page made while its link could not be read is not kept either, nor the page of a
  // link with a password: only who typed it may see it.
  const keepable = inputs.page.page !== 'not-found' && inputs.device === null && linkState === 'read' && !protectedLink;
  const key = pageKey(inputs);
  const kept = keepable ? await keptAnswer(c, inputs, key) : null;
  if (kept && 'answer' in kept) return kept.answer;
  const keeping = kept ? { key, ...kept } : null;

  const handoff = makeHandoff(inputs);
  // An unknown or expired short link (campaign/short-link.ts) is no page.
  const notFound = { status: 404, description: `Page not found: ${url.pathname}${url.search}` };
  if (c.get('link') === null) return { response: await renderStatic(handoff, notFound), view: null };
  const view = pageView(c, inputs.page, visitCampaign(inputs));

  const requestContext = routeContext({ diagnostics: handoff.diagnostics });
  // A kept page's routes see the page's address, not the raw URL: a parameter no page reads cannot reach them.
  // Under an app's prefix the routes see the URL as asked, the prefix their basename (docs/routes.md#apps).
  const asked = inputs.base ? withBase(url, inputs.base) : url;
  const request = keepable ? inputs.url : asked;
  const handler = handlerFor(inputs.base);
  const context = await handler
    .query(request.href === c.req.url ? c.req.raw : new Request(request, c.req.raw), { requestContext })
    .catch((error: unknown) => {
      console.error('Route resolution failed', error);
      return null;
    });
  if (context instanceof Response) return { response: context, view: null };
  if (!context) return { response: await renderStatic(handoff, notFound), view: null };

  const response = await renderDocument(c, { handler, context, handoff, view, keeping, bot: inputs.verdict.bot });
  if (response && protectedLink) response.headers.set('cache-control', 'private, no-store');
  return response ? { response, view } : { response: await renderStatic(handoff, { status: 500 }), view: null };
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
