/** Builds the client store seed (PRODUCT.md §6) for one request: only what the browser may see. */
import type { Context } from 'hono';
import type { ClientStore } from '../../shared/handoff.ts';
import type { AppEnv } from '../env.ts';
import { buildId } from './assets.ts';

export function isDiagnosticsOn(env: Env): boolean {
  return env.DIAGNOSTICS === 'on';
}

export function clientStore(c: Context<AppEnv>): ClientStore {
  const url = new URL(c.req.url);
  const downloadOrigin = c.env.DOWNLOAD_ORIGIN;
  return {
    buildId,
    env: c.env.LANDER_ENV === 'production' ? 'production' : 'development',
    diagnostics: isDiagnosticsOn(c.env),
    origin: url.origin,
    language: c.get('language'),
    deviceInfo: c.get('device'),
    queryData: {},
    downloadOrigin,
    downloadReachable: { init: false, url: downloadOrigin },
    traceOrigin: c.env.TRACE_ORIGIN || url.origin,
  };
}
