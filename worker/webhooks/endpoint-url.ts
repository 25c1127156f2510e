/**
 * Which URLs an endpoint may have (docs/webhooks.md#safety): `https` only, with no credentials in it,
 * to a host that is neither a literal loopback, private, link-local, shared, reserved or cloud
 * metadata address nor a name that only means something inside a network (`localhost`, `*.local`,
 * `*.internal`, a name without a dot). Development also allows `http://127.0.0.1:<port>`, so tests
 * and a local receiver work. The same check runs when an endpoint is saved and before every delivery.
 */

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** IPv4 ranges no delivery may reach, as [first octets, prefix length, name]. */
const BLOCKED_V4: readonly [number[], number, string][] = [
  [[169, 254, 169, 254], 32, 'a cloud metadata address'],
  [[0], 8, 'a reserved address'],
  [[10], 8, 'a private address'],
  [[100, 64], 10, 'a shared (carrier NAT) address'],
  [[127], 8, 'a loopback address'],
  [[169, 254], 16, 'a link-local address'],
  [[172, 16], 12, 'a private address'],
  [[192, 0, 0], 24, 'a reserved address'],
  [[192, 168], 16, 'a private address'],
  [[198, 18], 15, 'a benchmarking address'],
  [[224], 4, 'a multicast address'],
  [[240], 4, 'a reserved address'],
];

const LOCAL_NAMES = /(?:^|\.)(?:localhost|local|internal|localdomain|home\.arpa|lan|intranet|corp)$/;

function ipv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : null;
}

function v4Problem(bytes: readonly number[]): string | null {
  const value = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  for (const [start, prefix, name] of BLOCKED_V4) {
    const base = ((start[0] ?? 0) << 24) | ((start[1] ?? 0) << 16) | ((start[2] ?? 0) << 8) | (start[3] ?? 0);
    const mask = prefix === 0 ? 0 : ~0 << (32 - prefix);
    if ((value & mask) === (base & mask)) return name;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 literal (as the URL parser writes it, without brackets). */
function ipv6Groups(text: string): number[] | null {
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

function v6Problem(groups: readonly number[]): string | null {
  const [a = 0, b = 0, , , , f = 0, g = 0, h = 0] = groups;
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(7) && (h === 0 || h === 1)) return h === 1 ? 'a loopback address' : 'a reserved address';
  // An IPv4 address mapped into IPv6 (::ffff:a.b.c.d) or behind NAT64 (64:ff9b::a.b.c.d) is checked as IPv4.
  if ((zeroUpTo(5) && f === 0xffff) || (a === 0x64 && b === 0xff9b && groups.slice(2, 6).every((x) => x === 0))) {
    return v4Problem([g >> 8, g & 0xff, h >> 8, h & 0xff]);
  }
  if ((a & 0xfe00) === 0xfc00) return a === 0xfd00 && b === 0x0ec2 ? 'a cloud metadata address' : 'a private address';
  if ((a & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((a & 0xff00) === 0xff00) return 'a multicast address';
  if (a === 0x2001 && b === 0x0db8) return 'a documentation address';
  return null;
}

/** Why `host` (as the URL parser normalised it) may not receive deliveries, or null. */
export function hostProblem(host: string): string | null {
  if (host.startsWith('[')) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups ? v6Problem(groups) : 'an unreadable IPv6 address';
  }
  const v4 = ipv4(host);
  if (v4) return v4Problem(v4);
  const name = host.replace(/\.$/, '');
  if (name === 'metadata' || name === 'metadata.google.internal') return 'a cloud metadata name';
  if (LOCAL_NAMES.test(name)) return 'a name of a local network';
  if (!name.includes('.')) return 'a name without a domain';
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
  return problem
    ? { ok: false, reason: `must not point to ${problem} (${url.hostname})` }
    : { ok: true, url: url.href };
}
