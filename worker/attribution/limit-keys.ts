/**
 * What a rate-limited call is counted under (docs/attribution.md, "Rate limits"): its budget (the
 * page's taps or the app's calls), its network, and the one client on that network it comes from.
 * Every key is a keyed hash, so no address, network or id leaves the worker in clear.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { networkOf } from './network.ts';

/** `taps`: the page's calls (`/click`, `/click-ids`); `app`: the app's (install, open, event, identify). */
export type Budget = 'taps' | 'app';

/** The keys one call spends: its client's budget, then its network's ceiling. */
export interface LimitKeys {
  budget: Budget;
  client: string;
  network: string;
}

/** Which budget a path under `/api/a` spends. */
export function budgetOf(path: string): Budget {
  return /\/click(?:-ids)?\/?$/.test(path) ? 'taps' : 'app';
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * What tells one client from another on a shared network, most specific first: the app's install id,
 * the page's visitor id (in the body, else its `user_id` cookie), else the device's signature (agent,
 * languages, and the screen, zone and languages the page reports). Every one of these is the
 * client's to choose: a client that rotates them is held by the network's ceiling instead.
 */
function clientOf(c: Context<AppEnv>, body: Record<string, unknown>): string {
  const installId = text(body.installId);
  if (installId) return `install\n${text(body.app) ?? ''}\n${installId}`;
  const visitor = text(body.visitorId) ?? text(getCookie(c, 'user_id'));
  if (visitor) return `visitor\n${visitor}`;
  const reported = JSON.stringify([body.screen ?? null, body.tz ?? null, body.langs ?? null]);
  return `device\n${c.req.header('user-agent') ?? ''}\n${c.req.header('accept-language') ?? ''}\n${reported}`;
}

/** The JSON object a call's body holds, `{}` for none or for one that is no object (its route answers 400). */
async function bodyOf(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (c.req.method !== 'POST') return {};
  // Read once: the route reads the same text again from Hono's cache. The body-limit middleware
  // before this one has already answered 413 to a body over the bound.
  const raw = await c.req.text();
  try {
    const json: unknown = JSON.parse(raw);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The keys of the call `c` under `salt`. The network is the IPv4 /24 or the IPv6 /64
 * (network.ts), so every address of one /64 shares its budgets: a client cannot escape its own
 * by taking another address of its /64, as IPv6 privacy addresses do.
 */
export async function limitKeys(c: Context<AppEnv>, salt: string): Promise<LimitKeys> {
  const budget = budgetOf(c.req.path);
  const network = networkOf(c.req.header('cf-connecting-ip'))?.prefix ?? 'unknown';
  const client = clientOf(c, await bodyOf(c));
  const [clientKey, networkKey] = await Promise.all([
    keyedHash(salt, `limit\n${budget}\n${network}\n${client}`),
    keyedHash(salt, `limit\n${budget}\n${network}`),
  ]);
  return { budget, client: clientKey, network: networkKey };
}
