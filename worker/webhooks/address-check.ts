/**
 * Which IP addresses a delivery may reach (docs/webhooks.md#safety): only globally reachable unicast,
 * as the IANA IPv4 and IPv6 special-purpose address registries say, for a literal host and for a
 * resolver's answer alike. The ranges are ipaddr.js's (the classifier Express and Fastify trust);
 * this file names them, adds the few the library lumps together or lacks, and unwraps every IPv6
 * form that carries an IPv4 address, so `::ffff:169.254.169.254` is judged as the metadata address
 * it reaches, not as the IPv6 address it looks like.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address may not be reached: its range, and the IPv4 address inside it when that is why. */
export interface AddressProblem {
  /** `a private address`, `a 6to4 address`, … */
  what: string;
  /** The IPv4 address an IPv6 address carries, when that address is the one refused. */
  inside?: string;
}

const cidr = (text: string): [Address, number] => ipaddr.parseCIDR(text);

/**
 * Blocks named more precisely than ipaddr.js's range does (its `reserved` holds documentation and
 * benchmarking; it has no cloud metadata address, nor RFC 9780's dummy prefix). Checked first.
 */
const NAMED: Record<string, [Address, number][]> = {
  'a cloud metadata address': [cidr('169.254.169.254/32'), cidr('fd00:ec2::254/128')],
  'a documentation address': [
    cidr('192.0.2.0/24'),
    cidr('198.51.100.0/24'),
    cidr('203.0.113.0/24'),
    cidr('2001:db8::/32'),
    cidr('3fff::/20'),
  ],
  'a benchmarking address': [cidr('198.18.0.0/15'), cidr('2001:2::/48')],
  'a reserved address': [cidr('100:0:0:1::/64')],
};

/** ipaddr.js's range names as a reason says them; `unicast` is the only one taken. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'a reserved address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a shared (carrier NAT) address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  deprecatedSiteLocal: 'a site-local address',
  reserved: 'a reserved address',
  discard: 'a discard-only address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT relay address',
  benchmarking: 'a benchmarking address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a drone identity address',
  segmentRouting: 'a segment routing address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated (SIIT) address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** The global unicast block (RFC 4291): IPv6 addresses outside it are reserved by the IETF. */
const GLOBAL_UNICAST = cidr('2000::/3');
/** RFC 6052's well-known NAT64 prefix, the one embedding form the registry calls globally reachable. */
const NAT64 = cidr('64:ff9b::/96');
/** RFC 8215's local-use NAT64 prefix; its networks may choose any RFC 6052 prefix length from /48. */
const LOCAL_NAT64 = cidr('64:ff9b:1::/48');
/** IPv4-compatible addresses (RFC 4291 §2.5.5.1, deprecated): `::a.b.c.d`. */
const COMPATIBLE = cidr('::/96');

const v4 = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** 32 bits of `parts` starting at bit `start`, skipping bits 64–71 (RFC 6052's `u` octet). */
function rfc6052At(parts: readonly number[], start: number): ipaddr.IPv4 {
  const bytes = parts.flatMap((part) => [part >> 8, part & 0xff]);
  const octets: number[] = [];
  for (let at = start / 8; octets.length < 4; at += 1) if (at !== 8) octets.push(bytes[at] ?? 0);
  return new ipaddr.IPv4(octets);
}

/**
 * Every IPv4 address `address` may carry: the IPv4-mapped, IPv4-compatible and SIIT forms and
 * NAT64's last 32 bits, 6to4's bits 16–47, Teredo's server and its client (the last 32 bits
 * inverted, RFC 4380), and each RFC 6052 position a local-use NAT64 prefix may use.
 */
function embedded(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const last = v4(p[6] ?? 0, p[7] ?? 0);
  switch (address.range() as string) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [last];
    case 'rfc6052': {
      if (!address.match(LOCAL_NAT64)) return [last];
      // A local-use network picks its prefix length: /96 is the usual one, then the others RFC 6052
      // allows from /48. The first position that holds anything is the address it carries.
      const found = [96, 48, 56, 64].map((prefix) => rfc6052At(p, prefix)).find((at) => at.toString() !== '0.0.0.0');
      return found ? [found] : [];
    }
    case '6to4':
      return [v4(p[1] ?? 0, p[2] ?? 0)];
    case 'teredo':
      return [v4(p[2] ?? 0, p[3] ?? 0), v4(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)];
    default:
      // `::` and `::1` are the unspecified and loopback addresses, not IPv4-compatible ones.
      return address.match(COMPATIBLE) && address.range() === 'unicast' ? [last] : [];
  }
}

function v4Problem(address: ipaddr.IPv4): string | null {
  const named = ipaddr.subnetMatch(address, NAMED, '');
  if (named) return named;
  const range = address.range() as string;
  return range === 'unicast' ? null : (RANGE_WORDS[range] ?? 'a reserved address');
}

function v6Problem(address: ipaddr.IPv6): AddressProblem | null {
  const named = ipaddr.subnetMatch(address, NAMED, '');
  if (named) return { what: named };
  for (const carried of embedded(address)) {
    const problem = v4Problem(carried);
    if (problem) return { what: problem, inside: carried.toString() };
  }
  if (address.match(NAT64)) return null;
  if (address.match(LOCAL_NAT64)) return { what: 'a local-use NAT64 address' };
  if (address.match(COMPATIBLE) && address.range() === 'unicast') return { what: 'an IPv4-compatible address' };
  const range = address.range() as string;
  if (range !== 'unicast') return { what: RANGE_WORDS[range] ?? 'a reserved address' };
  return address.match(GLOBAL_UNICAST) ? null : { what: 'a reserved address' };
}

/**
 * Why `text`, an IPv4 address or an IPv6 one without brackets as the URL parser writes them, may not
 * be reached; null when it is globally reachable unicast. Text that is no address is a problem too.
 */
export function addressProblem(text: string): AddressProblem | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return wrap(v4Problem(ipaddr.IPv4.parse(text)));
  if (ipaddr.IPv6.isValid(text) && !text.includes('%')) return v6Problem(ipaddr.IPv6.parse(text));
  return { what: 'an unreadable address' };
}

const wrap = (what: string | null): AddressProblem | null => (what ? { what } : null);
