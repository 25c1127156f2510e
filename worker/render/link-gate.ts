/**
 * What a short link shows before its page (docs/smart-links.md#links). An expired link answers 410
 * Gone: "this link has expired" and the app's download, or for a bot the site's metadata, never the
 * link's campaign. A link with a password answers its form until the visitor's browser holds the
 * cookie the right password gave (campaign/link-password.ts); only then do its rules run and its page
 * render, and that page is never kept for another visitor. `POST /s/<slug>` checks the password:
 * tries are limited per link and address (`LINK_PASSWORD_LIMITER`), a right one sets the cookie
 * (HttpOnly, SameSite=Lax, Path=/s/<slug>, an hour) and sends the visitor back to the page with 303,
 * a wrong one answers the form again with its error, 400; a body over MAX_FORM_BYTES is refused
 * (413) unread. A post from another site's page is refused
 * (403) before the link is read: no page elsewhere makes its visitors' browsers try passwords from
 * their many addresses, past the limiter's count per address.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  PASS_SECONDS,
  passCookieName,
  passCookieOpens,
  passCookieValue,
  passwordMatches,
} from '../campaign/link-password.ts';
import { passwordHashOf } from '../campaign/links.ts';
import { readShortLink } from '../campaign/short-link.ts';
import type { AppEnv } from '../env.ts';
import type { StoredLink } from '../facts.ts';
import { cappedBody } from '../lib/capped-body.ts';
import { pageOf } from '../lib/page-of.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LIMITER_BUDGET_MS, messageOf } from '../reliability/budget.ts';
import { crossOriginReason } from '../sign-in/cross-site-writes.ts';
import { appLinkDownload } from './app-link-answer.ts';
import { expiredPageHtml, type FormError, passwordPageHtml } from './link-gate-page.ts';
import { metaPageHtml } from './meta-page.ts';
import { html, pageHeaders } from './page-headers.ts';

/** A page only this visitor may see: no cache between two keeps it. */
function privateHtml(body: string, status: number): Response {
  const headers = pageHeaders().map(([name, value]): [string, string] =>
    name === 'cache-control' ? [name, 'private, no-store'] : [name, value],
  );
  return html(body, status, headers);
}

/** The most bytes of a password form's post: its one field of at most 128 characters, with room to spare. */
const MAX_FORM_BYTES = 2048;

/** The 410 of an expired link: its page says so and offers the app; a bot reads the site's metadata. */
export function expiredAnswer(c: Context<AppEnv>): Response {
  const { config } = c.get('config');
  const base = c.get('appBase') ?? '';
  const language = c.get('language');
  if (c.get('device').bot) {
    return privateHtml(metaPageHtml(new URL(c.req.url).origin, language, config, base), 410);
  }
  // The device's store where one opens from here, else the download page, which offers every one.
  const download = appLinkDownload(c, new URLSearchParams()) ?? `${base}/`;
  return privateHtml(expiredPageHtml(language, config, download), 410);
}

/** The password form of the request's link, with `error` under its field. */
function formAnswer(c: Context<AppEnv>, error: FormError, status: number): Response {
  const { config } = c.get('config');
  const language = c.get('language');
  if (c.get('device').bot) {
    return privateHtml(metaPageHtml(new URL(c.req.url).origin, language, config, c.get('appBase') ?? ''), status);
  }
  return privateHtml(passwordPageHtml(language, config, new URL(c.req.url).pathname, error), status);
}

/**
 * For a link with a password, its form unless the request's cookie opens it; null for a link
 * anyone may open, or one this visitor has opened.
 */
export async function passwordGate(c: Context<AppEnv>, link: StoredLink): Promise<Response | null> {
  const stored = link.hasPassword ? passwordHashOf(link) : undefined;
  if (!stored) return null;
  const opens = await passCookieOpens(getCookie(c, passCookieName(link.slug)), stored, link.slug);
  return opens ? null : formAnswer(c, null, 200);
}

/** The limiter's key of tries at `slug` of `app` from the request's address: a hash, not the address. */
async function triesKey(c: Context<AppEnv>, slug: string): Promise<string> {
  const address = c.req.header('cf-connecting-ip') ?? '';
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${c.get('app')}\n${slug}\n${address}`),
  );
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether one more try at `slug` is allowed; a limiter that fails or is slow lets it through. */
async function mayTry(c: Context<AppEnv>, slug: string): Promise<boolean> {
  const limiter = c.env.LINK_PASSWORD_LIMITER;
  if (!limiter) return true;
  const key = await triesKey(c, slug);
  return withinBudget(
    limiter.limit({ key }).then(({ success }) => success),
    LIMITER_BUDGET_MS,
    () => true,
  ).catch((error: unknown) => {
    console.error('Link password limiter failed', messageOf(error));
    return true;
  });
}

/**
 * `POST /s/<slug>`: a protected link's password. Any other link answers as its page would (none: the
 * 404 page, expired: 410, open: back to its page), so a post tells no more than the page does; a
 * post to any other page is refused (405).
 */
export const linkPasswordPost: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { page, slug } = pageOf(c);
  if (page !== 'short' || !slug) return c.text('Method Not Allowed', 405, { allow: 'GET, HEAD' });
  if (crossOriginReason(c.req.raw)) return c.text("A link's password is typed on the link's own page", 403);
  const state = await readShortLink(c, slug);
  const link = c.get('link');
  if (state === 'expired') return expiredAnswer(c);
  if (state === 'unavailable')
    return c.text('This link cannot be read just now: try again', 503, { 'retry-after': '5' });
  if (!link) return next();
  const path = new URL(c.req.url).pathname;
  const stored = passwordHashOf(link);
  if (!stored) return c.body(null, 303, { location: path, 'cache-control': 'private, no-store' });
  if (!(await mayTry(c, link.slug))) {
    const response = formAnswer(c, 'tooMany', 429);
    response.headers.set('retry-after', '60');
    return response;
  }
  const bytes = await cappedBody(c.req.raw, MAX_FORM_BYTES);
  if (!bytes) return c.text(`A password form is at most ${MAX_FORM_BYTES} bytes`, 413);
  const form = await new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: bytes })
    .formData()
    .catch(() => null);
  const typed = form?.get('password');
  const password = typeof typed === 'string' ? typed : '';
  if (!password || password.length > 128 || !(await passwordMatches(password, stored))) {
    return formAnswer(c, 'wrong', 400);
  }
  const secure = new URL(c.req.url).protocol === 'https:' ? '; Secure' : '';
  const cookie = `${passCookieName(link.slug)}=${await passCookieValue(stored, link.slug)}; Max-Age=${PASS_SECONDS}; Path=${path}; HttpOnly; SameSite=Lax${secure}`;
  return new Response(null, {
    status: 303,
    headers: { location: path, 'set-cookie': cookie, 'cache-control': 'private, no-store' },
  });
};
