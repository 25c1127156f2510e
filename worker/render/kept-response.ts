/**
 * A kept page answered before routing (docs/architecture.md). For a GET of a page the funnel counts
 * (`/`, `/landing`, `/i/<carrier>`), the page's key is made from the same inputs, by the same
 * functions, as the page route makes it (render/client-store.ts `seedInputsOf`), so a kept page found
 * here is the very answer the app would give: the same bytes, the same headers, the same view counted.
 * It skips only what a kept page does not need: the router, the middlewares' steps, a context per
 * request. Anything else goes through the app, which renders and keeps: another method or path, a
 * configuration or APK parents' record this isolate has not read or must read again, the bundled
 * demo configuration (its responses say so in a header), no kept page, a kept error page.
 */
import { Context } from 'hono';
import { isolateParentsLoader } from '../apk/parents-loader.ts';
import type { AppEnv } from '../env.ts';
import { countView, pageKindOf } from '../funnel/count-view.ts';
import { isolateConfigLoader } from '../middleware/config.ts';
import { completeResponses } from '../middleware/security-headers.ts';
import { visitOf } from '../middleware/visitor.ts';
import { settingsOf } from '../settings.ts';
import { seedInputsOf } from './client-store.ts';
import { keptPage, pageKey } from './page-cache.ts';

/** The kept page `request` asks for, counted, or undefined: then the app answers it. */
export function keptResponse(request: Request, env: Env, ctx: ExecutionContext): Response | undefined {
  if (request.method !== 'GET') return undefined;
  const url = new URL(request.url);
  const kind = pageKindOf(url.pathname);
  // A short link's page depends on its stored link, read per request (funnel/short-link.ts).
  if (kind === null || kind === 'short') return undefined;
  const loaded = isolateConfigLoader.fresh();
  const apkParents = isolateParentsLoader.fresh();
  if (!loaded || loaded.fallback || !apkParents) return undefined;
  const visit = visitOf((name) => request.headers.get(name) ?? undefined);
  const inputs = seedInputsOf({ url, ...visit, loaded, settings: settingsOf(env), apkParents });
  const kept = keptPage(pageKey(inputs));
  if (!kept || kept.status >= 400) return undefined;
  if (kept.view) {
    // Counting reads the request as the app's handlers do: through a context.
    const c = new Context<AppEnv>(request, { env, executionCtx: ctx });
    c.set('device', visit.device);
    c.set('verdict', visit.verdict);
    countView(c, kept.view, kept.status);
  }
  const response = new Response(kept.body, { status: kept.status, headers: kept.headers });
  completeResponses.add(response);
  return response;
}
