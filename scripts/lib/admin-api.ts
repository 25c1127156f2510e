/**
 * Calls the admin API of a running worker (docs/operators.md) for the operators' CLIs: where it runs
 * (`--local` or no `--env`: the dev server of `npm start` on PORT; `--env development|production`:
 * the `LANDER_URL` variable; `--base` always wins) and the token (`ADMIN_TOKEN`; the development default for a local or
 * development worker, never for production). `--app ID` addresses that app's API on a shared host,
 * `/@ID/api/...` (docs/routes.md#apps).
 */
import { networkInterfaces } from 'node:os';
import { APP_ID_PATTERN, appBase } from '../../shared/apps.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';

export interface AdminTarget {
  /** Where the app's API and pages start: the worker's origin, e.g. `https://get.example.com`, and `/@ID` with `--app ID`. */
  base: string;
  token: string;
}

export type TargetResult = { ok: true; target: AdminTarget } | { ok: false; reason: string };

export interface TargetOptions {
  env?: string;
  local?: boolean;
  base?: string;
  /** The app (`--app`): its calls go to `/@<app>/api/...`; none, or `default`, the default app's. */
  app?: string;
  /** How the command names `base` in its refusals: `--base`, or `--url` for config:push. */
  baseFlag?: string;
}

/** Hosts a token may be sent to in the clear: this machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The variables the CLIs read. */
export type AdminVars = Partial<Record<'LANDER_URL' | 'PORT' | 'HOST' | 'ADMIN_TOKEN', string>>;

/** Where to call and with which token, from the CLI's options and `vars` (the process environment). */
export function adminTarget(
  { env = '', local = false, base, app, baseFlag = '--base' }: TargetOptions,
  vars: AdminVars,
): TargetResult {
  if (app !== undefined && !APP_ID_PATTERN.test(app)) {
    return {
      ok: false,
      reason: `--app: ${JSON.stringify(app)} is no app id (a lowercase letter, then 1–31 of a-z, 0-9, -)`,
    };
  }
  if (env !== '' && env !== 'development' && env !== 'production') {
    return { ok: false, reason: `unknown environment ${JSON.stringify(env)}: development or production` };
  }
  if (local && env !== '') return { ok: false, reason: '--local and --env exclude each other' };
  const production = env === 'production';
  // Without --env, LANDER_URL (when set) says where the worker runs; --local always means `npm start`'s.
  const origin =
    base ?? (local ? localOrigin(vars) : env === '' ? vars.LANDER_URL || localOrigin(vars) : vars.LANDER_URL);
  if (!origin) return { ok: false, reason: `say where the ${env} worker is: ${baseFlag} URL or LANDER_URL` };
  if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol)) {
    return { ok: false, reason: `${baseFlag} must be an http(s) origin, got ${JSON.stringify(origin)}` };
  }
  const token = vars.ADMIN_TOKEN || (production ? undefined : DEV_ADMIN_TOKEN);
  if (!token) return { ok: false, reason: 'set ADMIN_TOKEN to the production admin token' };
  // A real token travels only encrypted, or to this machine; the development token is no secret
  // (a phone on the local network reaches `npm start` over http).
  const url = new URL(origin);
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname) && token !== DEV_ADMIN_TOKEN) {
    return {
      ok: false,
      reason: `${baseFlag} ${url.origin} is plain http: the token would travel unencrypted; use https`,
    };
  }
  return { ok: true, target: { base: `${new URL(origin).origin}${app ? appBase(app) : ''}`, token } };
}

/** `fetch` of `path` on the target with its token; a network failure names the URL. */
export async function callAdmin(target: AdminTarget, path: string, init: RequestInit = {}): Promise<Response> {
  const url = `${target.base}${path}`;
  try {
    return await fetch(url, {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init.headers)), authorization: `Bearer ${target.token}` },
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot reach ${url} (${why}): start the local worker with npm start, or say where it runs with --base URL or LANDER_URL`,
    );
  }
}

/** The `error` of an admin API answer, or its status. */
export async function errorOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return `${res.status}: ${body.error}`;
    }
  } catch {
    // not JSON: the status says enough
  }
  return `${res.status} ${res.statusText}`;
}

/**
 * The origin of the local dev server `npm start` runs: `http://localhost:$PORT` (8787 by default), or
 * with `HOST` set the address a phone on the same network reaches (docs/operators.md#try-it-on-a-phone).
 */
export function localOrigin(vars: Partial<Record<'PORT' | 'HOST', string>>): string {
  const host = vars.HOST && vars.HOST !== '127.0.0.1' ? reachableHost(vars.HOST) : 'localhost';
  return `http://${host.includes(':') ? `[${host}]` : host}:${vars.PORT || '8787'}`;
}

/**
 * The address to print for a server listening on `host`: itself, or for a wildcard (`0.0.0.0`, `::`)
 * this machine's first non-internal IPv4 address, which a phone on the same network can reach.
 */
export function reachableHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  const addresses = Object.values(networkInterfaces()).flat();
  return addresses.find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? 'localhost';
}
