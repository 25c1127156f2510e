/**
 * Universal Links (iOS) and App Links (Android) association files (docs/config.md), generated from
 * the configuration's `links` on every request, so a `config:push` changes them without a deploy:
 * - `GET /.well-known/apple-app-site-association`: when `apple_app_ids` is set.
 * - `GET /.well-known/assetlinks.json`: when `android_package` and `android_sha256` are set.
 * - `GET /.well-known/applinking.json`: HarmonyOS App Linking, when `harmony_app_ids` is set.
 * Apple and Google fetch these without following redirects and expect JSON, so each answers 200
 * with `application/json` at this exact path, or 404 when not configured. No file in `public/`
 * may live under `/.well-known/`: static assets are served before the worker and would shadow them.
 */
import { Hono } from 'hono';
import type { LinksConfig } from '../../shared/config/schema.ts';
import type { AppEnv } from '../env.ts';

// Short: the operator may change the links, and Apple's CDN re-reads the file on its own schedule.
const CACHE = { 'cache-control': 'public, max-age=300' };

/** The apple-app-site-association document (developer.apple.com, "Supporting associated domains"). */
export function appleAppSiteAssociation(links: LinksConfig): object | null {
  if (links.apple_app_ids.length === 0) return null;
  return {
    applinks: {
      details: [{ appIDs: links.apple_app_ids, components: links.paths.map((path) => ({ '/': path })) }],
    },
  };
}

/** The Digital Asset Links statement list (developer.android.com, "Verify Android App Links"). */
export function assetLinks(links: LinksConfig): object[] | null {
  if (!links.android_package || links.android_sha256.length === 0) return null;
  return [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: links.android_package,
        sha256_cert_fingerprints: links.android_sha256,
      },
    },
  ];
}

/** HarmonyOS App Linking's association file (developer.huawei.com, "App Linking"). */
export function appLinking(links: LinksConfig): object | null {
  if (links.harmony_app_ids.length === 0) return null;
  return { applinking: { apps: links.harmony_app_ids.map((appIdentifier) => ({ appIdentifier })) } };
}

export const wellKnown = new Hono<AppEnv>();

wellKnown.get('/apple-app-site-association', (c) => {
  const body = appleAppSiteAssociation(c.get('config').config.links);
  return body ? c.json(body, 200, CACHE) : c.json({ error: 'Universal Links are not configured' }, 404);
});

wellKnown.get('/assetlinks.json', (c) => {
  const body = assetLinks(c.get('config').config.links);
  return body ? c.json(body, 200, CACHE) : c.json({ error: 'App Links are not configured' }, 404);
});

wellKnown.get('/applinking.json', (c) => {
  const body = appLinking(c.get('config').config.links);
  return body ? c.json(body, 200, CACHE) : c.json({ error: 'App Linking is not configured' }, 404);
});
