/**
 * The links API (docs/operators.md): `POST /api/links` mints and stores a short link, `GET /api/links`
 * lists them, `PATCH /api/links/<slug>` moves its expiry, `DELETE /api/links/<slug>` removes it (admin
 * only; each change is a webhook, docs/webhooks.md); `GET /s/<slug>.svg` is a stored link's QR code.
 */
import { Hono } from 'hono';
import { type LinkView, SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { adminAuth } from '../admin/admin-auth.ts';
import type { AppEnv } from '../env.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { qrSvg } from '../lib/qr-code.ts';
import { webhookLink } from '../webhooks/funnel-hooks.ts';
import { changeLink, deleteLink, LinkChangeSchema, storedLink } from './link-changes.ts';
import { createLink, LinkRequestSchema, listLinks, resolveLink, type StoredLink } from './links.ts';

/** The most bytes a link request may have. */
const MAX_BODY = 8_192;

/** A link as the API shows it: its page, short and QR URLs on `origin`. */
function linkView(origin: string, link: StoredLink): LinkView {
  return {
    slug: link.slug,
    url: `${origin}/landing?d=${link.token}`,
    shortUrl: `${origin}/s/${link.slug}`,
    qr: `${origin}/s/${link.slug}.svg`,
    data: link.data,
    createdAt: new Date(link.createdAt).toISOString(),
    expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
  };
}

export const linksRoute = new Hono<AppEnv>();

linksRoute.use(adminAuth());

linksRoute.post('/', jsonBodyLimit(MAX_BODY), async (c) => {
  const body = await readJson(c, LinkRequestSchema);
  if (body instanceof Response) return body;
  const result = await createLink(c.env, body);
  if (!result.ok) return c.json({ error: result.error }, result.status);
  webhookLink(c, 'link.created', result.link);
  return c.json(linkView(new URL(c.req.url).origin, result.link), 201);
});

linksRoute.get('/', async (c) => {
  const origin = new URL(c.req.url).origin;
  return c.json({ links: (await listLinks(c.env)).map((link) => linkView(origin, link)) });
});

linksRoute.patch(`/:slug{${SLUG_PATTERN}}`, jsonBodyLimit(MAX_BODY), async (c) => {
  const link = await storedLink(c.env, c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  const body = await readJson(c, LinkChangeSchema);
  if (body instanceof Response) return body;
  const result = await changeLink(c.env, link, body);
  if (!result.ok) return c.json({ error: result.error }, 400);
  webhookLink(c, 'link.updated', result.link);
  return c.json(linkView(new URL(c.req.url).origin, result.link));
});

linksRoute.delete(`/:slug{${SLUG_PATTERN}}`, async (c) => {
  const link = await storedLink(c.env, c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  await deleteLink(c.env, link);
  webhookLink(c, 'link.deleted', link);
  return c.body(null, 204);
});

/** `GET /s/<slug>.svg`, mounted at `/s`. */
export const linkQrRoute = new Hono<AppEnv>();

linkQrRoute.get(`/:file{${SLUG_PATTERN}\\.svg}`, async (c) => {
  const slug = c.req.param('file').slice(0, -'.svg'.length);
  const link = await resolveLink(c.env, slug);
  // A slug's URL always fits a QR code; null is only for texts too long for any.
  const svg = link && qrSvg(`${new URL(c.req.url).origin}/s/${slug}`);
  if (!svg) return c.text('No such link', 404);
  return c.body(svg, 200, {
    'Content-Type': 'image/svg+xml',
    'Cache-Control': 'public, max-age=300',
  });
});
