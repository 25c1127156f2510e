/** Compiling a link's rules (worker/rules/compile.ts): refusals name their place; what compiles reads what it names. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type LinkRule as Rule, RulesSchema } from '../../shared/link-rules.ts';
import { compileRules, positionOf, versionAtLeast } from '../../worker/rules/compile.ts';

const HOSTS = ['shop.example.com', '*.example.cn'];
const page = (when: string): Rule => ({ when, action: 'page' });
const errorsOf = (rules: Rule[]) => {
  const compiled = compileRules(rules, HOSTS);
  return compiled.ok ? [] : compiled.errors;
};

describe('compiling rules', () => {
  it('refuses an unknown variable with its rule and position', () => {
    expect(errorsOf([page('os == "iOS"'), page('true'), page('contry == "CN"')])).toEqual([
      'rules[2].when: unknown variable "contry" at 1:1',
    ]);
  });

  it('counts lines and columns from 1 in a condition of several lines', () => {
    expect(errorsOf([page('os == "iOS" &&\n  lang == "zh"')])).toEqual([
      'rules[0].when: unknown variable "lang" at 2:3',
    ]);
    expect(positionOf('ab\ncd', 4)).toBe('2:2');
  });

  it('refuses a condition that does not parse, where it stops', () => {
    expect(errorsOf([page('os ==')])).toEqual(['rules[0].when: unexpected token: EOF at 1:6']);
  });

  it('refuses a condition of the wrong type, and one that is not true or false', () => {
    expect(errorsOf([page('os == 1')])[0]).toMatch(/^rules\[0\]\.when: no such overload: string == int at 1:1$/);
    expect(errorsOf([page('os')])).toEqual(['rules[0].when: must be true or false, not string at 1:1']);
  });

  it('refuses matches (a backtracking regular expression on the visitor’s text)', () => {
    expect(errorsOf([page('browser.matches("(a+)+$")')])[0]).toMatch(
      /^rules\[0\]\.when: "matches" is not offered.* at 1:1$/,
    );
  });

  it('bounds the cost: no loop inside a loop, no condition over 200 nodes, no list over 32', () => {
    expect(errorsOf([page('[1, 2].all(x, [3].exists(y, y > x))')])).toEqual([
      'rules[0].when: "exists" inside another loop is refused: its cost multiplies at 1:15',
    ]);
    const long = Array.from({ length: 60 }, () => 'os == "iOS"').join(' || ');
    expect(errorsOf([page(long)])[0]).toMatch(/^rules\[0\]\.when: exceeded maxAstNodes \(200\) at 1:\d+$/);
    const list = `os in [${Array.from({ length: 33 }, (_, i) => `"${i}"`).join(', ')}]`;
    expect(errorsOf([page(list)])[0]).toMatch(/^rules\[0\]\.when: exceeded maxListElements \(32\)/);
    expect(errorsOf([page('query.exists(k, k == "a")')])).toEqual([]);
  });

  it('refuses a URL off the allow list, not https, or with credentials; takes one on it', () => {
    const url = (to: string): Rule => ({ when: 'true', action: 'url', url: to });
    expect(
      errorsOf([
        url('https://evil.example.org/x'),
        url('http://shop.example.com/'),
        url('https://a:b@shop.example.com/'),
        url('https://example.cn/'),
      ]),
    ).toEqual([
      'rules[0].url: the host "evil.example.org" is not on links.allowed_hosts',
      'rules[1].url: must be an https URL',
      'rules[2].url: must not carry a user name or password',
      'rules[3].url: the host "example.cn" is not on links.allowed_hosts',
    ]);
    expect(errorsOf([url('https://shop.example.com/a?b=1'), url('https://m.example.cn/')])).toEqual([]);
  });

  it('lists every refusal, not just the first', () => {
    expect(errorsOf([page('x'), page('y')])).toEqual([
      'rules[0].when: unknown variable "x" at 1:1',
      'rules[1].when: unknown variable "y" at 1:1',
    ]);
  });

  it('reads exactly the variables its conditions name', () => {
    const compiled = compileRules(
      [page('country == "CN" && has(query.utm)'), { when: 'device == "tablet"', action: 'store' }],
      HOSTS,
    );
    expect(compiled.ok && [...compiled.compiled.reads].sort()).toEqual(['country', 'device', 'query']);
    const none = compileRules([page('true')], HOSTS);
    expect(none.ok && none.compiled.reads.size).toBe(0);
  });
});

describe('the rule schema', () => {
  it('takes the four actions and refuses an unknown one, a bad path and a bad variant', () => {
    const ok = v.safeParse(RulesSchema, [
      { when: 'true', action: 'page', variant: 'b' },
      { when: 'true', action: 'store' },
      { when: 'true', action: 'url', url: 'https://shop.example.com/' },
      { when: 'true', action: 'deep-link', path: '/product/42?from=link' },
    ]);
    expect(ok.success).toBe(true);
    for (const bad of [
      { when: 'true', action: 'jump' },
      { when: 'true', action: 'deep-link', path: '//evil.example/' },
      { when: 'true', action: 'deep-link', path: 'product' },
      { when: 'true', action: 'deep-link', path: '/a\u0000b' },
      { when: 'true', action: 'page', variant: 'no spaces' },
      { when: '', action: 'page' },
      { when: 'true', action: 'store', url: 'https://x.example/' },
    ])
      expect(v.safeParse(RulesSchema, [bad]).success, JSON.stringify(bad)).toBe(false);
    expect(
      v.safeParse(
        RulesSchema,
        Array.from({ length: 101 }, () => ({ when: 'true', action: 'store' })),
      ).success,
    ).toBe(false);
  });
});

describe('atLeast', () => {
  it('compares dotted versions as numbers, part by part', () => {
    expect(versionAtLeast('17.4.1', '17.2')).toBe(true);
    expect(versionAtLeast('9', '17')).toBe(false);
    expect(versionAtLeast('17', '17.0.0')).toBe(true);
    expect(versionAtLeast('17.1', '17.1.1')).toBe(false);
    expect(versionAtLeast('', '1')).toBe(false);
    expect(versionAtLeast('x', '1')).toBe(false);
  });
});
