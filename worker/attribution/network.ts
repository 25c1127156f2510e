/**
 * A visitor's network (docs/attribution.md): the IPv4 /24 or the IPv6 /64 the address belongs to,
 * the unit the probabilistic match and the rate limit work in. Phones behind one home router, office
 * or carrier NAT share it; that is why a match there must be unique to count.
 */

import type { Network } from '../facts.ts';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4(text: string): number[] | null {
  const parts = IPV4.exec(text)?.slice(1).map(Number);
  return parts?.every((n) => n <= 255) ? parts : null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or null. */
function ipv6(text: string): number[] | null {
  if (text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let written = text;
  // An embedded IPv4 tail (`::ffff:203.0.113.7`) is two more groups.
  const tail = /(?<=:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)?.[1];
  if (tail) {
    const b = ipv4(tail);
    if (!b) return null;
    const hex = (hi = 0, lo = 0) => ((hi << 8) | lo).toString(16);
    written = `${text.slice(0, -tail.length)}${hex(b[0], b[1])}:${hex(b[2], b[3])}`;
  }
  if (written.includes('.')) return null;
  const halves = written.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groupsOf(halves[0]);
  const right = groupsOf(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return all.map((g) => Number.parseInt(g, 16));
}

/** The network of `address` (`CF-Connecting-IP`), or null when it is not an IP address. */
export function networkOf(address: string | null | undefined): Network | null {
  const text = address?.trim() ?? '';
  const v4 = ipv4(text);
  if (v4) return { prefix: `4:${v4.slice(0, 3).join('.')}`, address: `4:${v4.join('.')}` };
  const v6 = ipv6(text);
  if (!v6) return null;
  // An IPv4 address written as IPv6 (`::ffff:203.0.113.7`) is that IPv4 address.
  if (v6.slice(0, 5).every((n) => n === 0) && v6[5] === 0xffff) {
    const bytes = [(v6[6] ?? 0) >> 8, (v6[6] ?? 0) & 255, (v6[7] ?? 0) >> 8, (v6[7] ?? 0) & 255];
    return { prefix: `4:${bytes.slice(0, 3).join('.')}`, address: `4:${bytes.join('.')}` };
  }
  const hex = v6.map((n) => n.toString(16));
  return { prefix: `6:${hex.slice(0, 4).join(':')}`, address: `6:${hex.join(':')}` };
}
