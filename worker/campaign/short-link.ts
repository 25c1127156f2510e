/**
 * `GET /s/<slug>` (docs/operators.md), however the router spells it: the page reads the stored short
 * link before it renders (render/render-page.tsx), so the
 * page (worker/render/handoff.ts) shows its campaign and its view counts under the link. The
 * link is read from D1 here, once, and put on the context: rendering itself stays synchronous and
 * keyed by what it is made of (worker/render/page-cache.ts). An unknown slug is set as null and the
 * page answers 404; an expired one is null too, and its page says it has expired (render/link-gate.ts).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';
import { readLink } from './links.ts';

/** How reading the short link went: read (found or not), expired, or D1 could not tell. */
export type ShortLinkState = 'read' | 'expired' | 'unavailable';

/**
 * Reads the short link `slug` of the page `c` asks for onto the context (`link`): the stored link, or
 * null when there is none or it has expired (`expired`). While D1 cannot tell (docs/reliability.md) the
 * link is left unset and this answers `unavailable`: the visitor gets the campaign page without the
 * link's campaign rather than a "not found" for a link that exists, and that page is not kept.
 */
export async function readShortLink(c: Context<AppEnv>, slug: string): Promise<ShortLinkState> {
  const link = await readLink(c.env, c.get('app'), slug);
  if (link === 'unavailable') return 'unavailable';
  c.set('link', link === 'expired' ? null : link);
  return link === 'expired' ? 'expired' : 'read';
}
