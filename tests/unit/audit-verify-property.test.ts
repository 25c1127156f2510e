/**
 * The audit log's offline check (scripts/lib/audit-check.ts, docs/operators.md#audit-log): for random
 * chains up to a signed head and a random tamper — a field altered, an entry altered and re-hashed,
 * one removed, two swapped, the file cut before the head — the check always names the first entry
 * tampered with; an untouched chain is always intact. Also RFC 8785's own examples of canonical JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChain } from '../../scripts/lib/audit-check.ts';
import { type AuditEntry, canonicalJson, entryHash, GENESIS, redactedOf } from '../../worker/audit/chain.ts';

const change = fc.record({
  at: fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
  actor: fc.constantFrom('token', 'ops@example.com', 'ci-service'),
  via: fc.constantFrom('token', 'sign-in'),
  kind: fc.constantFrom('link', 'webhook', 'test-device'),
  action: fc.constantFrom('created', 'updated', 'deleted', 'rotated'),
  target: fc.string({ minLength: 1, maxLength: 12 }),
  before: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: null }),
  after: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: null }),
});

/** A chain of `changes` as the worker appends them (worker/audit/append.ts). */
async function chainOf(changes: readonly Record<string, unknown>[]) {
  const entries: AuditEntry[] = [];
  let prevHash = GENESIS;
  for (const [index, made] of changes.entries()) {
    // Kept as JSON text in D1: the values hashed are what that text reads back as.
    const { at, actor, via, kind, action, target, before, after } = JSON.parse(JSON.stringify(made));
    const body = { seq: index + 1, at, actor, via, app: 'default', kind, action, target, before, after, prevHash };
    const hash = await entryHash(body);
    entries.push({ ...body, hash });
    prevHash = hash;
  }
  return entries;
}

const TAMPERS = ['alter', 'alter-rehash', 'delete', 'swap', 'truncate'] as const;

/** `entries` with `tamper` done at index `at` (and `other`, for a swap); what the check must name. */
async function tampered(entries: AuditEntry[], tamper: (typeof TAMPERS)[number], at: number, other: number) {
  const copy = entries.map((entry) => ({ ...entry }));
  const victim = copy[at] as AuditEntry;
  switch (tamper) {
    case 'alter':
      victim.actor = `${victim.actor}!`;
      return copy;
    case 'alter-rehash':
      victim.target = `${victim.target}!`;
      victim.hash = await entryHash(victim);
      return copy;
    case 'delete':
      copy.splice(at, 1);
      return copy;
    case 'swap':
      [copy[at], copy[other]] = [copy[other] as AuditEntry, victim];
      return copy;
    case 'truncate':
      return copy.slice(0, at);
  }
}

describe('npm run audit:verify: the chain check', () => {
  it('names the first entry altered, re-hashed, removed, moved or cut before the head', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 2, maxLength: 25 }),
        fc.constantFrom(...TAMPERS),
        fc.nat(),
        fc.nat(),
        async (changes, tamper, pick, pickOther) => {
          const entries = await chainOf(changes);
          const last = entries.at(-1) as AuditEntry;
          const head = { seq: last.seq, hash: last.hash };
          expect(await checkChain(entries, head)).toEqual({ ok: true, seq: head.seq, hash: head.hash });
          const at = pick % entries.length;
          // A swap needs a later entry to swap with.
          const other = at + 1 + (pickOther % Math.max(1, entries.length - at - 1));
          fc.pre(tamper !== 'swap' || other < entries.length);
          const verdict = await checkChain(await tampered(entries, tamper, at, other), head);
          expect(verdict).toMatchObject({ ok: false, seq: at + 1 });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('checks an app’s export, the other apps’ entries redacted to their hashes, as it checks the whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(change, fc.boolean()), { minLength: 2, maxLength: 25 }),
        fc.constantFrom('alter', 'alter-rehash'),
        fc.nat(),
        async (drawn, tamper, pick) => {
          const entries = await chainOf(drawn.map(([made]) => made));
          const last = entries.at(-1) as AuditEntry;
          const head = { seq: last.seq, hash: last.hash };
          // The entries of the other apps, as an app's export answers them.
          const redact = (chain: AuditEntry[]) =>
            chain.map((entry, index) => (drawn[index]?.[1] ? redactedOf(entry) : entry));
          expect(await checkChain(redact(entries), head)).toEqual({ ok: true, seq: head.seq, hash: head.hash });
          // An entry the app reads whole, altered: named as in the whole log.
          const whole = drawn.flatMap(([, other], index) => (other ? [] : [index]));
          fc.pre(whole.length > 0);
          const at = whole[pick % whole.length] as number;
          const verdict = await checkChain(redact(await tampered(entries, tamper, at, at)), head);
          expect(verdict).toMatchObject({ ok: false, seq: at + 1 });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds a chain intact without a head, and names a re-hashed last entry only with one', async () => {
    const entries = await chainOf([
      { at: 1, actor: 'token', via: 'token', kind: 'link', action: 'created', target: 'a', before: null, after: {} },
    ]);
    const [only] = entries as [AuditEntry];
    const rewritten = { ...only, target: 'b' };
    rewritten.hash = await entryHash(rewritten);
    expect(await checkChain([rewritten])).toMatchObject({ ok: true });
    expect(await checkChain([rewritten], { seq: 1, hash: only.hash })).toMatchObject({ ok: false, seq: 1 });
  });
});

describe('canonical JSON (RFC 8785)', () => {
  it('sorts members by UTF-16 code units and writes numbers and strings as ECMAScript does', () => {
    // RFC 8785, 3.2.3 (sorting) and 3.2.2.3 (numbers).
    expect(
      canonicalJson({
        '\u20ac': 'Euro Sign',
        '\r': 'Carriage Return',
        '\ufb33': 'Hebrew Letter Dalet With Dagesh',
        '1': 'One',
        '\ud83d\ude00': 'Emoji: Grinning Face',
        '\u0080': 'Control',
        '\u00f6': 'Latin Small Letter O With Diaeresis',
      }),
    ).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(
      canonicalJson({
        // biome-ignore lint/correctness/noPrecisionLoss: RFC 8785's example writes the number so, to show its rounding.
        numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
        literals: [null, true, false],
      }),
    ).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}');
    expect(() => canonicalJson(Number.NaN)).toThrow();
  });
});
