/**
 * `GET /api/apps` (docs/routes.md#apps, docs/operators.md): the apps of the deployment the caller may
 * see, for the console's app switcher — the admin token every app, an API key its own app, a person
 * (signed in, or with the provider's JWT) each app they hold a role in (sign-in/members.ts). Each app with `base`, where its
 * console and API are on the shared host (`/@notes`, '' for the default app).
 */
import { type Context, Hono } from 'hono';
import { type AppEntry, type AppsAnswer, type AppView, appBase, DEFAULT_APP } from '../../shared/apps.ts';
import type { AppEnv } from '../env.ts';
import { appsWithRole, isPerson } from '../sign-in/members.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { requestApps } from './request-app.ts';

export const appsRoute = new Hono<AppEnv>();

/**
 * Where `app`'s console opens from this request's host: on a shared host under the app's base (every
 * app answers there); on an app's own host, which takes no prefix, at the app's own host, else under
 * its base on the default app's first host; null when neither exists.
 */
function consoleOf(c: Context<AppEnv>, app: AppEntry, apps: AppEntry[]): string | null {
  const onOwnHost = c.get('app') !== DEFAULT_APP && c.get('appBase') === '';
  if (!onOwnHost) return `${appBase(app.id)}/admin`;
  const { protocol } = new URL(c.req.url);
  const own = app.hosts?.[0];
  if (own) return `${protocol}//${own}/admin`;
  const shared = apps.find((entry) => entry.id === DEFAULT_APP)?.hosts?.[0];
  return shared ? `${protocol}//${shared}${appBase(app.id)}/admin` : null;
}

// Any role of the request's app may ask: viewers hold `stats:read`.
appsRoute.get('/', operatorAuth('stats:read'), async (c) => {
  const operator = c.get('operator');
  const { registry } = await requestApps(c);
  const all: AppEntry[] = registry?.apps ?? [];
  // The default app is an app whether the registry lists it or not.
  const apps = all.some((app) => app.id === DEFAULT_APP)
    ? all
    : [{ id: DEFAULT_APP, name: DEFAULT_APP, hosts: [] }, ...all];
  // The admin token sees every app; a person, each app they hold a role in; a key, its own app.
  let visible = apps.filter((app) => app.id === c.get('app'));
  if (operator?.via === 'token') visible = apps;
  else if (operator && isPerson(operator)) {
    const theirs = await appsWithRole(
      c.env.FUNNEL_DB,
      operator.actor,
      apps.map((app) => app.id),
    );
    visible = apps.filter((app) => theirs.has(app.id));
  }
  const views: AppView[] = visible.map((app) => ({ ...app, base: appBase(app.id), console: consoleOf(c, app, apps) }));
  return c.json({ apps: views, current: c.get('app') } satisfies AppsAnswer);
});
