/**
 * A link's variants in the links API (docs/smart-links.md#variants-and-the-sequential-test):
 * `PUT /api/links/<slug>/variants` gives a link its variants and the outcome they are judged on,
 * `GET` answers them as kept, `DELETE` removes them (each change kept in the audit log and announced as the link's), `GET
 * /api/links/<slug>/experiment` answers each variant's counts and its verdict against the control,
 * and `GET /api/experiments` the experiments of every link that has variants, for the console.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { ExperimentSchema, type ExperimentView } from '../../shared/variants.ts';
import { announce, sceneOf } from '../announce.ts';
import { storedLink } from '../campaign/link-changes.ts';
import { listLinks } from '../campaign/links.ts';
import { committerOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import type { StoredLink } from '../facts.ts';
import { variantCounts } from '../funnel/variant-counts.ts';
import { jsonBodyLimit, readJson } from '../lib/json-body.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { experimentView } from './experiment.ts';

/** The most bytes a variants request may have: 8 variants of full words and URLs. */
const MAX_BODY = 32_768;
/** The most experiments `GET /api/experiments` answers: the newest links' with variants. */
const MAX_EXPERIMENTS = 50;

const SLUG = `/:slug{${SLUG_PATTERN}}`;
const EventQuery = v.optional(
  v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/, 'event: names are a-z 0-9 _ . - (at most 40)')),
);

/** The experiment of `link`, judged on `event` (else the link's own choice, else installs). */
async function viewOf(env: Env, app: string, link: StoredLink, event?: string): Promise<ExperimentView | null> {
  const { experiment } = link;
  if (!experiment) return null;
  const outcome = event ?? experiment.event;
  return experimentView(link.slug, experiment, await variantCounts(env.FUNNEL_DB, app, link.slug, outcome), outcome);
}

/** Mounted at `/api/links`, before the links API, whose other paths it leaves alone. */
export const variantsRoute = new Hono<AppEnv>();

variantsRoute.use(`${SLUG}/variants`, operatorAuth('links'));
variantsRoute.use(`${SLUG}/experiment`, operatorAuth('links'));

variantsRoute.put(`${SLUG}/variants`, jsonBodyLimit(MAX_BODY), async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  const experiment = await readJson(c, ExperimentSchema);
  if (experiment instanceof Response) return experiment;
  const next: StoredLink = { ...link, experiment };
  const update = c.env.FUNNEL_DB.prepare('UPDATE funnel_links SET variants = ?3 WHERE app = ?1 AND slug = ?2').bind(
    c.get('app'),
    link.slug,
    JSON.stringify(experiment),
  );
  await committerOf(c)([update], { kind: 'link', action: 'updated', target: link.slug, before: link, after: next });
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'updated', link: next });
  return c.json(experiment);
});

// The variants as kept, for the console's editor: the experiment's answer names them, not their words.
variantsRoute.get(`${SLUG}/variants`, async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  if (!link.experiment) return c.json({ error: 'slug: the link has no variants' }, 404);
  return c.json(link.experiment);
});

variantsRoute.delete(`${SLUG}/variants`, async (c) => {
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  if (!link.experiment) return c.body(null, 204);
  const { experiment: _removed, ...next } = link;
  const update = c.env.FUNNEL_DB.prepare('UPDATE funnel_links SET variants = NULL WHERE app = ?1 AND slug = ?2').bind(
    c.get('app'),
    link.slug,
  );
  await committerOf(c)([update], { kind: 'link', action: 'updated', target: link.slug, before: link, after: next });
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'updated', link: next });
  return c.body(null, 204);
});

variantsRoute.get(`${SLUG}/experiment`, async (c) => {
  const event = v.safeParse(EventQuery, c.req.query('event'));
  if (!event.success) return c.json({ error: event.issues[0].message }, 400);
  const link = await storedLink(c.env, c.get('app'), c.req.param('slug'));
  if (!link) return c.json({ error: 'slug: no such link' }, 404);
  const view = await viewOf(c.env, c.get('app'), link, event.output);
  if (!view) return c.json({ error: 'slug: the link has no variants' }, 404);
  return c.json(view);
});

/** `GET /api/experiments`: the experiments of the newest links with variants. */
export const experimentsRoute = new Hono<AppEnv>();

experimentsRoute.use(operatorAuth('links'));

experimentsRoute.get('/', async (c) => {
  const app = c.get('app');
  const links = (await listLinks(c.env, app)).filter((link) => link.experiment).slice(0, MAX_EXPERIMENTS);
  const views = await Promise.all(links.map((link) => viewOf(c.env, app, link)));
  return c.json({ experiments: views.filter((view) => view !== null) });
});
