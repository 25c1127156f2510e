/**
 * Builds the client store seed (docs/config.md) for one request: only what the browser may see, and
 * everything the screens show — kept pages are keyed by it (page-cache.ts).
 */
import type { Context } from 'hono';
import { NO_CAMPAIGN } from '../../shared/campaign.ts';
import type { ClientStore } from '../../shared/handoff.ts';
import { readCampaign } from '../campaign/query-data.ts';
import { carriedBuild } from '../carried-build.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { downloadView } from './download-view.ts';
import { landingView } from './landing-view.ts';
import { openAppView } from './open-app-view.ts';
import { siteMeta } from './site-meta.ts';

/** The seed for `c`, whose URL is `url` (parsed once by the caller). */
export function clientStore(c: Context<AppEnv>, url: URL): ClientStore {
  const settings = settingsOf(c.env);
  const { downloadOrigin, env } = settings;
  const { config, fallback } = c.get('config');
  const language = c.get('language');
  const device = c.get('device');
  const campaign = url.search ? readCampaign(url.searchParams, settings.decodeKey) : NO_CAMPAIGN;
  const download = downloadView({ config, device, language, downloadOrigin, pageUrl: url });
  const openApp = openAppView({ config, device, env, language, pageUrl: url, campaign, download });
  return {
    buildId: carriedBuild.id,
    env,
    diagnostics: settings.diagnostics,
    origin: url.origin,
    language,
    deviceInfo: device,
    campaign,
    downloadOrigin,
    traceOrigin: settings.traceOrigin || url.origin,
    appData: config.appData,
    domains: config.domains,
    commonConfig: config.commonConfig,
    debug: config.commonConfig.debug,
    config: { revision: config.revision, fallback },
    site: siteMeta(config, language),
    download,
    openApp,
    landing: landingView(download, openApp),
  };
}
