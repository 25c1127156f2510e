/**
 * No webhook reaches an address that is not globally reachable unicast (docs/webhooks.md#safety),
 * however an IPv6 address carries it: IPv4-mapped, IPv4-compatible, SIIT, NAT64 (well-known and
 * local-use), 6to4 and Teredo, and the documentation and benchmarking ranges. Each form is refused by
 * the real worker in production twice: as a literal URL, and as what the resolver answers for a name
 * (the receiver's resolver writes the record exactly as given, `answerName`); a delivery's own check
 * refuses it too. Property tests log their seed (`FC_SEED` replays it).
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointView } from '../../../shared/webhooks.ts';
import { attemptDelivery } from '../../../worker/webhooks/deliver.ts';
import { fetchWorker } from '../helpers.ts';
import { admin, answerName, RECEIVER } from '../webhook-fixtures.ts';

const TOKEN = 'production-admin-token-for-ssrf-tests';
const RESOLVER = `${RECEIVER}/dns-query`;
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** `POST /api/webhooks` in production, with the receiver's resolver: the status and the error. */
async function create(url: string): Promise<{ status: number; error: string }> {
  const res = await fetchWorker(
    'https://lander.test/api/webhooks',
    {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    },
    { ...env, LANDER_ENV: 'production', ADMIN_TOKEN: TOKEN, WEBHOOK_RESOLVER: RESOLVER },
  );
  const body = await res.json<{ error?: string }>();
  return { status: res.status, error: body.error ?? '' };
}

/** A literal URL of `address`, bracketed when it is IPv6. */
const literal = (address: string) => `https://${address.includes(':') ? `[${address}]` : address}/hook`;

afterEach(async () => {
  const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

/** Each form as a resolver writes it, and the reason with the address the URL parser writes. */
const REFUSED: [string, string][] = [
  ['::ffff:169.254.169.254', 'a cloud metadata address (169.254.169.254 inside [::ffff:a9fe:a9fe])'],
  ['::ffff:127.0.0.1', 'a loopback address (127.0.0.1 inside [::ffff:7f00:1])'],
  ['::ffff:8.8.8.8', 'an IPv4-mapped address ([::ffff:808:808])'],
  ['::7f00:1', 'a loopback address (127.0.0.1 inside [::7f00:1])'],
  ['::169.254.169.254', 'a cloud metadata address (169.254.169.254 inside [::a9fe:a9fe])'],
  ['::8.8.8.8', 'an IPv4-compatible address ([::808:808])'],
  ['::ffff:0:10.0.0.1', 'a private address (10.0.0.1 inside [::ffff:0:a00:1])'],
  ['64:ff9b::10.0.0.1', 'a private address (10.0.0.1 inside [64:ff9b::a00:1])'],
  ['64:ff9b:1::169.254.169.254', 'a cloud metadata address (169.254.169.254 inside [64:ff9b:1::a9fe:a9fe])'],
  ['64:ff9b:1:a00:0:100::', 'a private address (10.0.0.1 inside [64:ff9b:1:a00:0:100::])'],
  ['64:ff9b:1::808:808', 'a local-use NAT64 address ([64:ff9b:1::808:808])'],
  ['2002:a9fe:a9fe::1', 'a cloud metadata address (169.254.169.254 inside [2002:a9fe:a9fe::1])'],
  ['2002:c0a8:101::', 'a private address (192.168.1.1 inside [2002:c0a8:101::])'],
  ['2002:808:808::1', 'a 6to4 address ([2002:808:808::1])'],
  [
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'a loopback address (127.0.0.1 inside [2001:0:4136:e378:8000:63bf:80ff:fffe])',
  ],
  ['2001:0:a00:1::1', 'a private address (10.0.0.1 inside [2001:0:a00:1::1])'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'a Teredo address ([2001:0:4136:e378:8000:63bf:f7f7:f7f7])'],
  ['192.0.2.1', 'a documentation address (192.0.2.1)'],
  ['198.51.100.7', 'a documentation address (198.51.100.7)'],
  ['203.0.113.9', 'a documentation address (203.0.113.9)'],
  ['2001:db8::1', 'a documentation address ([2001:db8::1])'],
  ['3fff::1', 'a documentation address ([3fff::1])'],
  ['198.18.0.1', 'a benchmarking address (198.18.0.1)'],
  ['198.19.255.254', 'a benchmarking address (198.19.255.254)'],
  ['2001:2::1', 'a benchmarking address ([2001:2::1])'],
  ['fd00:ec2::254', 'a cloud metadata address ([fd00:ec2::254])'],
  ['100:0:0:1::1', 'a reserved address ([100:0:0:1::1])'],
  ['4000::1', 'a reserved address ([4000::1])'],
];

describe('addresses that are not globally reachable unicast', () => {
  it.each(REFUSED)('refuses %s as a literal URL: %s', async (address, reason) => {
    expect(await create(literal(address))).toEqual({ status: 400, error: `url: must not point to ${reason}` });
  });

  it.each(REFUSED)('refuses %s as the resolver answers it: %s', async (address, reason) => {
    expect(await create(`https://${answerName(address)}/hook`)).toEqual({
      status: 400,
      error: `url: must not resolve to ${reason}`,
    });
  });

  it('refuses each again before a delivery, as a literal and as an answer, for good and without sending', async () => {
    const target = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_ssrf', body: '{}' };
    for (const [address, reason] of REFUSED) {
      const direct = await attemptDelivery({ ...target, url: literal(address) }, 'production', { resolver: RESOLVER });
      expect(direct).toEqual({ verdict: 'final', status: 0, latencyMs: 0, error: `url must not point to ${reason}` });
      const named = `https://${answerName(address)}/hook`;
      const answered = await attemptDelivery({ ...target, url: named }, 'production', { resolver: RESOLVER });
      expect(answered).toMatchObject({ verdict: 'final', status: 0, error: `url must not resolve to ${reason}` });
    }
  });

  it('takes global unicast: a public address, one behind the well-known NAT64 prefix, a public AAAA answer', async () => {
    expect((await create(literal('64:ff9b::808:808'))).status).toBe(201);
    expect((await create(literal('2606:4700:4700::1111'))).status).toBe(201);
    expect((await create(`https://${answerName('2606:4700:4700::1111')}/hook`)).status).toBe(201);
    expect((await create(`https://${answerName('64:ff9b::93.184.216.34')}/hook`)).status).toBe(201);
    expect((await create(`https://${answerName('93.184.216.34')}/hook`)).status).toBe(201);
  });

  it('refuses an answer that is no address of its type', async () => {
    expect(await create(`https://${answerName('::ffff:999.1.1.1')}/hook`)).toEqual({
      status: 400,
      error: 'url: must not resolve to an unreadable address (::ffff:999.1.1.1)',
    });
  });
});

/** The IPv4 blocks no delivery may reach, inside any of which a property's address falls. */
const NON_GLOBAL_V4: [number, number][] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0000200, 24],
  [0xc0586300, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xc6336400, 24],
  [0xcb007100, 24],
  [0xe0000000, 4],
  [0xf0000000, 4],
];

const hex = (value: number) => (value & 0xffff).toString(16);
const dotted = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');

/** Each way an IPv6 address carries the IPv4 address `v` (32 bits), with `spell` choosing dotted or hex. */
const FORMS: Record<string, (v: number, spell: boolean) => string> = {
  mapped: (v, spell) => `::ffff:${spell ? dotted(v) : `${hex(v >>> 16)}:${hex(v)}`}`,
  compatible: (v, spell) => `::${spell ? dotted(v) : `${hex(v >>> 16)}:${hex(v)}`}`,
  siit: (v, spell) => `::ffff:0:${spell ? dotted(v) : `${hex(v >>> 16)}:${hex(v)}`}`,
  nat64: (v, spell) => `64:ff9b::${spell ? dotted(v) : `${hex(v >>> 16)}:${hex(v)}`}`,
  localNat64: (v, spell) => `64:ff9b:1::${spell ? dotted(v) : `${hex(v >>> 16)}:${hex(v)}`}`,
  // RFC 6052's /48 layout: 16 bits, the `u` octet, then 16 bits across two groups.
  localNat64At48: (v) => `64:ff9b:1:${hex(v >>> 16)}:${hex((v >>> 8) & 0xff)}:${hex((v & 0xff) << 8)}::`,
  sixToFour: (v) => `2002:${hex(v >>> 16)}:${hex(v)}::1`,
  teredoClient: (v) => `2001:0:4136:e378:8000:63bf:${hex(~v >>> 16)}:${hex(~v)}`,
  teredoServer: (v) => `2001:0:${hex(v >>> 16)}:${hex(v)}:8000:63bf:f7f7:f7f7`,
};

const carried = fc
  .record({
    block: fc.constantFrom(...NON_GLOBAL_V4),
    host: fc.integer({ min: 0, max: 0xffffffff }),
    form: fc.constantFrom(...Object.keys(FORMS)),
    spell: fc.boolean(),
    upper: fc.boolean(),
  })
  .map(({ block: [base, prefix], host, form, spell, upper }) => {
    const v = (base | (host & (2 ** (32 - prefix) - 1))) >>> 0;
    const text = FORMS[form]?.(v, spell) ?? '';
    return { v4: dotted(v), form, address: upper ? text.toUpperCase() : text };
  });

describe('property: a non-global IPv4 address in any IPv6 form', () => {
  it('is refused by the worker as a literal and as an answer, naming the IPv4 address it carries', async () => {
    console.log(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);
    await fc.assert(
      fc.asyncProperty(carried, async ({ v4, form, address }) => {
        const asLiteral = await create(literal(address));
        const asAnswer = await create(`https://${answerName(address)}/hook`);
        expect(asLiteral.status).toBe(400);
        expect(asAnswer.status).toBe(400);
        expect(asLiteral.error).toMatch(/^url: must not point to /);
        expect(asAnswer.error).toMatch(/^url: must not resolve to /);
        // `::` and `::1` are the unspecified and loopback addresses themselves, and a local-use NAT64
        // address of only zeros carries nothing: refused as what they are, not for an IPv4 inside.
        const itself =
          (form === 'compatible' && (v4 === '0.0.0.0' || v4 === '0.0.0.1')) ||
          (form.startsWith('localNat64') && v4 === '0.0.0.0');
        if (!itself) {
          expect(asLiteral.error).toContain(`(${v4} inside [`);
          expect(asAnswer.error).toContain(`(${v4} inside [`);
        }
      }),
      { seed, numRuns: 150 },
    );
  });
});
