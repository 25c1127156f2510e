/**
 * Answering a kept page (docs/routes.md, decision 010): the page this isolate rendered before from
 * the same inputs (page-cache.ts), else the one another isolate of the location shares
 * (location-pages.ts), adopted here. Kept pages carry the view they count, so a kept answer is counted
 * like a rendered one, by the caller.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';
import type { PageView } from '../lib/visit.ts';
import type { HandoffInputs } from './handoff.ts';
import { locationKey, locationPage } from './location-pages.ts';
import { adoptPage, keptPage, pageId } from './page-cache.ts';
import { html, PAGE_HEADERS, timing } from './page-headers.ts';

/** A page's answer and the view it counts (none for a redirect, an error page, a page not counted). */
export interface PageAnswer {
  response: Response;
  view: PageView | null;
}

/** The kept answer, or the page's id and the location's key to share a page rendered now under. */
export type KeptAnswer = { answer: PageAnswer } | { id: string; located: string };

/** The kept page of `key`, from this isolate or the location, or what a render shares it under. */
export async function keptAnswer(c: Context<AppEnv>, inputs: HandoffInputs, key: string): Promise<KeptAnswer> {
  const kept = keptPage(key);
  if (kept) return { answer: { response: html(kept.body, kept.status, kept.headers), view: kept.view } };
  const id = pageId(key);
  // Not kept here: perhaps by another isolate of the location (decision 010), kept by this deploy
  // (wrangler.toml binds its version id; a runtime that binds none shares pages with no version).
  const version = { deploy: c.env.CF_VERSION_METADATA?.id ?? '', headers: PAGE_HEADERS };
  const located = await locationKey(new URL(c.req.url).origin, inputs, version);
  const found = await locationPage(located);
  if (!found) return { id, located };
  adoptPage(key, { ...found, headers: new Headers([...found.headers, timing('hit', id)]) });
  return {
    answer: { response: html(found.body, found.status, [...found.headers, timing('shared', id)]), view: found.view },
  };
}
