/**
 * Random rule lists over random requests (worker/rules/): evaluation never throws, agrees with a plain
 * reference interpreter of a subset of CEL (its error semantics included: `false && error` is false,
 * `true || error` is true), and never sends to a host off today's allow list.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action, LinkRule as Rule } from '../../shared/link-rules.ts';
import { compileRules, hostAllowed } from '../../worker/rules/compile.ts';
import { evaluateRules } from '../../worker/rules/evaluate.ts';
import type { RuleInput } from '../../worker/rules/variables.ts';

const STRING_VARS = [
  'os',
  'os_version',
  'device',
  'browser',
  'in_app',
  'country',
  'region',
  'language',
  'channel',
  'inviter',
] as const;
type StringVar = (typeof STRING_VARS)[number];
const WORDS = ['', 'iOS', 'Android', 'CN', 'phone', 'zh', 'WeChat', 'a"b', 'x\\y', 'é'];
const KEYS = ['utm', 'ref', 'a_b'];

type Condition =
  | { k: 'eq' | 'ne'; name: StringVar; word: string }
  | { k: 'in'; name: StringVar; words: string[] }
  | { k: 'flag'; name: 'super_app' | 'harmony' }
  | { k: 'param'; key: string; word: string }
  | { k: 'has'; key: string }
  | { k: 'time'; op: '<' | '<=' | '>' | '>='; at: string; flipped: boolean }
  | { k: 'not'; of: Condition }
  | { k: 'and' | 'or'; a: Condition; b: Condition };

const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 }));
const { condition } = fc.letrec<{ condition: Condition }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ k: fc.constantFrom('eq' as const, 'ne' as const), name: fc.constantFrom(...STRING_VARS), word }),
    fc.record({
      k: fc.constant('in' as const),
      name: fc.constantFrom(...STRING_VARS),
      words: fc.array(word, { maxLength: 4 }),
    }),
    fc.record({ k: fc.constant('flag' as const), name: fc.constantFrom('super_app' as const, 'harmony' as const) }),
    fc.record({ k: fc.constant('param' as const), key: fc.constantFrom(...KEYS), word }),
    fc.record({ k: fc.constant('has' as const), key: fc.constantFrom(...KEYS) }),
    fc.record({
      k: fc.constant('time' as const),
      op: fc.constantFrom('<' as const, '<=' as const, '>' as const, '>=' as const),
      // A time CEL takes, or text it refuses when the rule runs (too short, not a date).
      at: fc.oneof(
        fc
          .date({ min: new Date('1990-01-01'), max: new Date('2060-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constantFrom('2027-01-01', 'not a time at all, no', '2027-01-01T00:00:00.000+08:00'),
      ),
      flipped: fc.boolean(),
    }),
    fc.record({ k: fc.constant('not' as const), of: tie('condition') }),
    fc.record({ k: fc.constantFrom('and' as const, 'or' as const), a: tie('condition'), b: tie('condition') }),
  ),
}));

const literal = (text: string): string => JSON.stringify(text);

/** The condition in CEL. */
function cel(c: Condition): string {
  switch (c.k) {
    case 'eq':
      return `${c.name} == ${literal(c.word)}`;
    case 'ne':
      return `${c.name} != ${literal(c.word)}`;
    case 'in':
      return `${c.name} in [${c.words.map(literal).join(', ')}]`;
    case 'flag':
      return c.name;
    case 'param':
      return `query.${c.key} == ${literal(c.word)}`;
    case 'has':
      return `has(query.${c.key})`;
    case 'time': {
      const at = `timestamp(${literal(c.at)})`;
      return c.flipped ? `${at} ${FLIP[c.op]} now` : `now ${c.op} ${at}`;
    }
    case 'not':
      return `!(${cel(c.of)})`;
    case 'and':
      return `(${cel(c.a)}) && (${cel(c.b)})`;
    case 'or':
      return `(${cel(c.a)}) || (${cel(c.b)})`;
  }
}

const FLIP = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** CEL's `timestamp(text)`: ISO 8601 of 20 to 30 characters in years 1–9999, else an error. */
function timeOf(text: string): number | null {
  const time = new Date(text).getTime();
  if (text.length < 20 || text.length > 30 || Number.isNaN(time)) return null;
  return time <= 253402300799999 && time >= -62135596800000 ? time : null;
}

const ERROR = 'error';
type Value = boolean | typeof ERROR;

/** The reference: the same subset, written plainly. */
function reference(c: Condition, at: RuleInput): Value {
  switch (c.k) {
    case 'eq':
      return at[c.name] === c.word;
    case 'ne':
      return at[c.name] !== c.word;
    case 'in':
      return c.words.includes(at[c.name]);
    case 'flag':
      return at[c.name];
    case 'param': {
      const value = at.query.get(c.key);
      return value === undefined ? ERROR : value === c.word;
    }
    case 'has':
      return at.query.has(c.key);
    case 'time': {
      const time = timeOf(c.at);
      if (time === null) return ERROR;
      const now = at.now.getTime();
      return { '<': now < time, '<=': now <= time, '>': now > time, '>=': now >= time }[c.op];
    }
    case 'not': {
      const of = reference(c.of, at);
      return of === ERROR ? ERROR : !of;
    }
    case 'and': {
      const [a, b] = [reference(c.a, at), reference(c.b, at)];
      if (a === false || b === false) return false;
      return a === ERROR || b === ERROR ? ERROR : true;
    }
    case 'or': {
      const [a, b] = [reference(c.a, at), reference(c.b, at)];
      if (a === true || b === true) return true;
      return a === ERROR || b === ERROR ? ERROR : false;
    }
  }
}

const HOSTS = ['a.example', 'b.example', 'c.example'];
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ action: 'page' } as const),
  fc.constantFrom('a', 'b').map((variant) => ({ action: 'page' as const, variant })),
  fc.constant({ action: 'store' } as const),
  fc.constantFrom(...HOSTS).map((host) => ({ action: 'url' as const, url: `https://${host}/x` })),
  fc.constant({ action: 'deep-link', path: '/p/1' } as const),
);
const rules = fc.array(
  fc.tuple(condition, action).map(([when, then]) => ({ when, then })),
  { maxLength: 12 },
);
const inputFields = {
  os: fc.constantFrom('iOS', 'Android', 'Harmony', 'PC'),
  os_version: fc.constantFrom('', '17.4', '9'),
  device: fc.constantFrom('phone' as const, 'tablet' as const, 'desktop' as const),
  browser: word,
  in_app: word,
  super_app: fc.boolean(),
  harmony: fc.boolean(),
  country: word,
  region: word,
  language: word,
  channel: word,
  inviter: word,
  query: fc.dictionary(fc.constantFrom(...KEYS), word).map((entries) => new Map(Object.entries(entries))),
  now: fc.date({ min: new Date('1990-01-01'), max: new Date('2060-01-01'), noInvalidDate: true }),
};
const input: fc.Arbitrary<RuleInput> = fc.record(inputFields);
// Today's allow list: a subset of the hosts the rules were written with.
const today = fc.subarray(HOSTS);

describe('rules over random requests', () => {
  it('never throw, agree with the reference interpreter, and never send off the allow list', () => {
    fc.assert(
      fc.property(rules, input, today, (written, at, allowed) => {
        const compiled = compileRules(
          written.map(({ when, then }): Rule => ({ when: cel(when), ...then })),
          HOSTS,
        );
        if (!compiled.ok) throw new Error(compiled.errors.join('\n'));
        const decision = evaluateRules(compiled.compiled, at, allowed);

        const failed: number[] = [];
        let chosen: number | null = null;
        for (const [index, { when, then }] of written.entries()) {
          const value = reference(when, at);
          if (value === ERROR) failed.push(index);
          if (value !== true) continue;
          if (then.action === 'url' && !hostAllowed(new URL(then.url).hostname, allowed)) {
            failed.push(index);
            continue;
          }
          chosen = index;
          break;
        }
        expect(decision.rule).toBe(chosen);
        expect(decision.action).toEqual(chosen === null ? { action: 'page' } : written[chosen]?.then);
        expect(decision.failures.map(({ index }) => index)).toEqual(failed);
        if (decision.action.action === 'url') expect(allowed).toContain(new URL(decision.action.url).hostname);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never throw when conversions and functions meet any visitor text', () => {
    // Conditions that compile but may fail on what a visitor types into the query.
    const atoms = fc.constantFrom(
      'int(query.utm) > 3',
      '1 / size(query) == 0',
      'now.getHours(query.ref) == 1',
      'os_version.atLeast(query.utm)',
      'query.utm.startsWith(os)',
      'timestamp(query.utm) < now',
      'double(query.ref) > 1.5',
      'query.exists(k, k.size() > int(query.ref))',
      'os in query',
      'size(query.a_b) == 2',
      'query.utm.substring(int(query.ref)) == "x"',
      'duration(query.ref) > duration("1s")',
    );
    const condition = fc
      .array(fc.tuple(fc.boolean(), atoms, fc.constantFrom('&&', '||')), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([not, atom, op], at) => `${at ? ` ${op} ` : ''}${not ? '!' : ''}(${atom})`).join(''));
    const visitor = fc.record({
      ...inputFields,
      query: fc
        .dictionary(
          fc.constantFrom(...KEYS),
          fc.oneof(
            fc.string(),
            fc.constantFrom('3', '-1', '99999999999999999999', 'UTC', '2027-01-01T00:00:00Z', '1s', 'NaN'),
          ),
        )
        .map((entries) => new Map(Object.entries(entries))),
    });
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 8 }), visitor, (conditions, at) => {
        const compiled = compileRules(
          conditions.map((when): Rule => ({ when, action: 'store' })),
          HOSTS,
        );
        if (!compiled.ok) throw new Error(compiled.errors.join('\n'));
        const decision = evaluateRules(compiled.compiled, at, HOSTS);
        expect(['page', 'store']).toContain(decision.action.action);
        for (const { index } of decision.failures) expect(index).toBeLessThan(conditions.length);
      }),
      { numRuns: 1_000 },
    );
  });
});
