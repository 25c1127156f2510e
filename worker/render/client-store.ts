/** Builds the client store seed (PRODUCT.md §6) for one request: only what the browser may see. */
import type { Context } from 'hono';
import type { ClientStore } from '../../shared/handoff.ts';
import { UNRESOLVED_IDENTITY } from '../../shared/identity.ts';
import { decodeKey } from '../campaign/decode-key.ts';
import { readQueryData } from '../campaign/query-data.ts';
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
    queryData: url.search ? readQueryData(url, decodeKey(c.env)) : {},
    downloadOrigin,
    downloadReachable: { init: false, url: downloadOrigin },
    traceOrigin: c.env.TRACE_ORIGIN || url.origin,
    identity: UNRESOLVED_IDENTITY,
  };
}
