/**
 * The links API (docs/operators.md): `POST /api/links` mints and stores a short link, `GET /api/links`
 * lists them, `GET /api/links/<slug>` answers one (expired or not: what `npm run import` compares),
 * `PATCH /api/links/<slug>` moves its expiry, `DELETE /api/links/<slug>` removes it (admin
 * only; each change is kept in the audit log and announced, a webhook's event, docs/webhooks.md); `GET /s/<slug>.svg` and `.png` are a stored link's QR code, plain or styled (styled-qr.ts).
 */
import type { Context } from 'hono';
import { Hono, type MiddlewareHandler } from 'hono';
import { type LinkView, SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { isPlainQrStyle, parseQrStyle } from '../../shared/qr-style.ts';
import { announce, sceneOf } from '../announce.ts';
import { appOrigin } from '../apps/app-origin.ts';
import { committerOf } from '../commit-change.ts';
import { appConfig } from '../config/config-middleware.ts';
import type { AppEnv } from '../env.ts';
import type { StoredLink } from '../facts.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { qrPng, qrSvg } from '../lib/qr-code.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { CardBodySchema, deleteCard, MAX_CARD_BODY, putCard, refusedCard, serveCard } from './link-card.ts';
import { changeLink, deleteLink, LinkChangeSchema, storedLink } from './link-changes.ts';
import { createLink, LinkRequestSchema, listLinks, resolveLink } from './links.ts';

/** The most bytes a link request may have: room for a link's 100 rules (docs/smart-links.md). */
const MAX_BODY = 65_536;

/** A link as the API shows it: its page, short and QR URLs on `origin`. */
function linkView(origin: string, link: StoredLink): LinkView {
  return {
    slug: link.slug,
    url: `${origin}/landing?d=${link.token}`,
    shortUrl: `${origin}/s/${link.slug}`,
    qr: `${origin}/s/${link.slug}.svg`,
    qrPng: `${origin}/s/${link.slug}.png`,
    data: link.data,
    createdAt: new Date(link.createdAt).toISOString(),
    expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
    rules: [...(link.rules ?? [])],
    hasPassword: link.hasPassword === true,
    preview: link.preview ?? null,
    source: link.source ?? 'operator',
  };
}

/** The hosts the request's app lets a link's rule send visitors to (docs/config.md). */
const allowedHosts = (c: Context<AppEnv>): readonly string[] => c.get('config').config.links.allowed_hosts;

export const linksRoute = new Hono<AppEnv>();

linksRoute.use(operatorAuth('links'));

linksRoute.post('/', jsonBodyLimit(MAX_BODY), async (c) => {
  const body = await readJson(c, LinkRequestSchema);
  if (body instanceof Response) return body;
  const result = await createLink(c.env, c.get('app'), body, committerOf(c), { allowedHosts: allowedHosts(c) });
  if (!result.ok) return c.json({ error: result.error }, result.status);
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'created', link: result.link });
  return c.json(linkView(appOrigin(c), result.link), 201);
});

linksRoute.get('/', async (c) => {
  const origin = appOrigin(c);
  return c.json({ links: (await listLinks(c.env, c.get('app'))).map((link) => linkView(origin, link)) });
});

linksRoute.get(`/:slug{${SLUG_PATTERN}}`, async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  return c.json(linkView(appOrigin(c), link));
});

linksRoute.patch(`/:slug{${SLUG_PATTERN}}`, jsonBodyLimit(MAX_BODY), async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  const body = await readJson(c, LinkChangeSchema);
  if (body instanceof Response) return body;
  const result = await changeLink(c.env, c.get('app'), link, body, committerOf(c), {
    allowedHosts: allowedHosts(c),
  });
  if (!result.ok) return c.json({ error: result.error }, 400);
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'updated', link: result.link });
  return c.json(linkView(appOrigin(c), result.link));
});

// A link's preview card, drawn by `npm run link -- --card` (link-card.ts): a 1200×630 PNG.
// The admin API takes JSON only (sign-in/cross-site-writes.ts): the PNG comes as base64.
linksRoute.put(`/:slug{${SLUG_PATTERN}}/card`, jsonBodyLimit(MAX_CARD_BODY), async (c) => {
  const body = await readJson(c, CardBodySchema);
  if (body instanceof Response) return body;
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  const bytes = Uint8Array.from(atob(body.png), (char) => char.charCodeAt(0));
  const refused = refusedCard(bytes);
  if (refused) return c.json({ error: refused }, 400);
  await putCard(c.env, c.get('app'), link.slug, bytes);
  return c.json({ card: `${appOrigin(c)}/s/${link.slug}/card.png` });
});

linksRoute.delete(`/:slug{${SLUG_PATTERN}}`, async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  await deleteLink(c.env, c.get('app'), link, committerOf(c));
  await deleteCard(c.env, c.get('app'), link.slug);
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'deleted', link });
  return c.body(null, 204);
});

/** The QR code's formats: each one's file type, and its drawing of a URL. */
const QR_FORMATS = {
  svg: { type: 'image/svg+xml', draw: qrSvg },
  png: { type: 'image/png', draw: qrPng },
} as const;

/**
 * Only a code with the app's logo reads the app's configuration (its `logo_url`): the route is mounted
 * before the configuration is read (worker/index.ts), and a plain or coloured code costs no KV read.
 */
const readConfig = appConfig();
const configForLogo: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.url.includes('?') && c.req.query('logo') === '1' ? readConfig(c, next) : next();

/**
 * `GET /s/<slug>.svg` and `GET /s/<slug>.png`, mounted at `/s`, optionally styled (shared/qr-style.ts),
 * and the link's preview card `GET /s/<slug>/card.png`.
 */
export const linkQrRoute = new Hono<AppEnv>();

// The link's preview card (link-card.ts): its link's row from D1, then R2; no configuration.
linkQrRoute.get(`/:slug{${SLUG_PATTERN}}/card.png`, (c) => serveCard(c, c.req.param('slug')));

linkQrRoute.get(`/:file{${SLUG_PATTERN}\\.(?:svg|png)}`, configForLogo, async (c) => {
  const file = c.req.param('file');
  const dot = file.lastIndexOf('.');
  const extension = file.slice(dot + 1) as keyof typeof QR_FORMATS;
  const format = QR_FORMATS[extension];
  // A URL without a query is the plain code: no style is parsed on its path.
  const parsed = c.req.url.includes('?') ? parseQrStyle((name) => c.req.query(name)) : null;
  if (parsed && !parsed.ok) return c.json({ error: parsed.error }, 400);
  const slug = file.slice(0, dot);
  const link = await resolveLink(c.env, c.get('app'), slug);
  const text = `${appOrigin(c)}/s/${slug}`;
  if (link && parsed && !isPlainQrStyle(parsed.style, extension)) {
    // Loaded on first use: the PNG codec is for styled codes only, not the pages' modules.
    const { styledQr } = await import('./styled-qr.ts');
    return styledQr(c, { slug, text, format: extension, style: parsed.style });
  }
  // A slug's URL always fits a QR code; null is only for texts too long for any.
  const image = link && format.draw(text);
  if (!image) return c.text('No such link', 404);
  return c.body(image, 200, {
    'Content-Type': format.type,
    'Cache-Control': 'public, max-age=300',
    // Saved under the link's name when the console (or anyone) downloads it.
    'Content-Disposition': `inline; filename="qr-${slug}.${extension}"`,
  });
});
