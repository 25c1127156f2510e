/** Builds the client store seed (docs/config.md) for one request: only what the browser may see. */
import type { Context } from 'hono';
import type { ClientStore } from '../../shared/handoff.ts';
import { decodeKey } from '../campaign/decode-key.ts';
import { type Campaign, readCampaign } from '../campaign/query-data.ts';
import { carriedBuild } from '../carried-build.ts';
import type { AppEnv } from '../env.ts';
import { downloadView } from './download-view.ts';
import { landingView } from './landing-view.ts';
import { openAppView } from './open-app-view.ts';
import { siteMeta } from './site-meta.ts';

export function isDiagnosticsOn(env: Env): boolean {
  return env.DIAGNOSTICS === 'on';
}

export function clientStore(c: Context<AppEnv>): ClientStore {
  const url = new URL(c.req.url);
  const downloadOrigin = c.env.DOWNLOAD_ORIGIN;
  const { config, fallback } = c.get('config');
  const language = c.get('language');
  const env = c.env.LANDER_ENV === 'production' ? 'production' : 'development';
  const device = c.get('device');
  const campaign: Campaign = url.search ? readCampaign(url, decodeKey(c.env)) : { data: {} };
  const download = downloadView({ config, device, language, downloadOrigin, pageUrl: url.href });
  const openApp = openAppView({ config, device, env, language, pageUrl: url, queryData: campaign.data, download });
  return {
    buildId: carriedBuild.id,
    env,
    diagnostics: isDiagnosticsOn(c.env),
    origin: url.origin,
    language,
    deviceInfo: device,
    queryData: campaign.data,
    ...(campaign.token ? { campaignToken: campaign.token } : {}),
    downloadOrigin,
    traceOrigin: c.env.TRACE_ORIGIN || url.origin,
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
