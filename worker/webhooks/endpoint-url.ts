/**
 * Which URLs an endpoint may have (docs/webhooks.md#safety): `https` only, with no credentials in it,
 * to a host that is neither a literal address other than globally reachable unicast (address-check.ts)
 * nor a name that only means something inside a network (`localhost`, `*.local`, `*.internal`, a name
 * without a dot). Development also allows `http://127.0.0.1:<port>`, so tests and a local receiver
 * work. The same check runs when an endpoint is saved and before every delivery.
 */
import { addressProblem } from './address-check.ts';

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const LOCAL_NAMES = /(?:^|\.)(?:localhost|local|internal|localdomain|home\.arpa|lan|intranet|corp)$/;

/**
 * Why `host` (as the URL parser normalised it: an IPv4 address in four decimal parts, an IPv6 one in
 * brackets, or a lowercase name) may not receive deliveries, with the address or name in brackets
 * after the reason; null when it may.
 */
export function hostProblem(host: string): string | null {
  const literal = host.startsWith('[') ? host.slice(1, -1) : /^[\d.]+$/.test(host) ? host : null;
  if (literal !== null) {
    const problem = addressProblem(literal);
    if (!problem) return null;
    return `${problem.what} (${problem.inside ? `${problem.inside} inside ${host}` : host})`;
  }
  const name = host.replace(/\.$/, '');
  if (name === 'metadata' || name === 'metadata.google.internal') return `a cloud metadata name (${host})`;
  if (LOCAL_NAMES.test(name)) return `a name of a local network (${host})`;
  if (!name.includes('.')) return `a name without a domain (${host})`;
  return null;
}

/** Whether `url` may be an endpoint in `env`, with the reason when not. */
export function checkEndpointUrl(text: string, env: 'development' | 'production'): UrlCheck {
  if (!URL.canParse(text)) return { ok: false, reason: 'must be an absolute URL' };
  const url = new URL(text);
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user name or password' };
  url.hash = '';
  // Development's one exception, for a receiver on this machine (docs/webhooks.md#safety).
  if (env === 'development' && url.protocol === 'http:' && url.hostname === '127.0.0.1') {
    return { ok: true, url: url.href };
  }
  if (url.protocol !== 'https:') {
    return {
      ok: false,
      reason: env === 'production' ? 'must be https' : 'must be https (or http://127.0.0.1:<port> in development)',
    };
  }
  const problem = hostProblem(url.hostname);
  return problem ? { ok: false, reason: `must not point to ${problem}` } : { ok: true, url: url.href };
}
