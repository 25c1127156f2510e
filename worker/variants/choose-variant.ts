/**
 * The variant a visitor of `/s/<slug>` sees (docs/smart-links.md#assignment), chosen before the page
 * is made: by the visitor id of the `user_id` cookie; on a first visit, which has none, by a visitor
 * id minted here and given to the browser in that cookie, which the page's own identity step then
 * keeps (docs/identity.md) — so the first visit and every return are the same variant. With
 * `COOKIELESS=on` no cookie is set and the variant follows the address and agent instead, kept only
 * as a keyed hash's input.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import { isUuid, USER_ID_KEY, USER_ID_MAX_AGE } from '../../shared/identity.ts';
import type { Variant } from '../../shared/variants.ts';
import type { AppEnv } from '../env.ts';
import { visitorSource } from '../lib/visit.ts';
import { settingsOf } from '../settings.ts';
import { assignmentKey, assignVariant } from './assign.ts';

/** The visitor id of the request's `user_id` cookie, lower case, or null when it holds none. */
function cookieVisitor(c: Context<AppEnv>): string | null {
  const value = getCookie(c, USER_ID_KEY);
  return isUuid(value) ? value.toLowerCase() : null;
}

/**
 * Sets on `c` (`variant`) the variant of the stored link its visitor sees, when the link has variants:
 * the one a rule's `page` action names (`named`, when the link has it), else the one the keyed hash
 * gives the visitor, with the deployment's key (`FUNNEL_SALT`; production without it shows the
 * control). A bot or previewer gets the control, or the named one: it is no visitor, and its preview
 * must be the same for everyone.
 */
export async function chooseVariant(c: Context<AppEnv>, named?: string): Promise<void> {
  const link = c.get('link');
  const variants = link?.experiment?.variants;
  if (!link || !variants) return;
  const ruled = named === undefined ? undefined : variants.find(({ name }) => name === named);
  if (ruled) {
    c.set('variant', ruled);
    return;
  }
  const [control] = variants;
  const settings = settingsOf(c.env);
  if (c.get('device').bot || !settings.funnelSalt) {
    if (control) c.set('variant', control);
    return;
  }
  let visitor = cookieVisitor(c);
  if (settings.cookieless) {
    const { address, agent } = visitorSource(c);
    visitor ??= `${address}\n${agent}`;
  } else if (!visitor) {
    visitor = crypto.randomUUID();
    // Set by the page's response (render/render-page.tsx), whether rendered or kept.
    c.set(
      'visitorCookie',
      serialize(USER_ID_KEY, visitor, { maxAge: USER_ID_MAX_AGE, path: '/', secure: true, sameSite: 'Lax' }),
    );
  }
  const key = assignmentKey(settings.funnelSalt, c.get('app'));
  const weights = variants.map(({ weight }) => weight);
  const chosen: Variant | undefined = variants[await assignVariant(key, link.slug, visitor, weights)];
  if (chosen) c.set('variant', chosen);
}

/** What a page shows of `variant`, as one string: the page cache's key holds it (render/page-cache.ts). */
export function shownKey(variant: Variant | undefined): string | null {
  if (!variant) return null;
  const { weight: _weight, ...shown } = variant;
  return JSON.stringify(shown);
}
