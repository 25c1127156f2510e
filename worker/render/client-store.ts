/** Builds the client store seed (PRODUCT.md §6) for one request: only what the browser may see. */
import type { Context } from 'hono';
import type { ClientStore } from '../../shared/handoff.ts';
import { UNRESOLVED_IDENTITY } from '../../shared/identity.ts';
import { decodeKey } from '../campaign/decode-key.ts';
import { readQueryData } from '../campaign/query-data.ts';
import { carriedBuild } from '../carried-build.ts';
import type { AppEnv } from '../env.ts';
import { downloadView } from './download-view.ts';
import { siteMeta } from './site-meta.ts';

export function isDiagnosticsOn(env: Env): boolean {
  return env.DIAGNOSTICS === 'on';
}

export function clientStore(c: Context<AppEnv>): ClientStore {
  const url = new URL(c.req.url);
  const downloadOrigin = c.env.DOWNLOAD_ORIGIN;
  const { config, fallback } = c.get('config');
  const language = c.get('language');
  return {
    buildId: carriedBuild.id,
    env: c.env.LANDER_ENV === 'production' ? 'production' : 'development',
    diagnostics: isDiagnosticsOn(c.env),
    origin: url.origin,
    language,
    deviceInfo: c.get('device'),
    queryData: url.search ? readQueryData(url, decodeKey(c.env)) : {},
    downloadOrigin,
    downloadReachable: { init: false, url: downloadOrigin },
    traceOrigin: c.env.TRACE_ORIGIN || url.origin,
    appData: config.appData,
    domains: config.domains,
    commonConfig: config.commonConfig,
    debug: config.commonConfig.debug,
    config: { revision: config.revision, fallback },
    site: siteMeta(config, language),
    download: downloadView({ config, device: c.get('device'), language, downloadOrigin, pageUrl: url.href }),
    identity: UNRESOLVED_IDENTITY,
  };
}
