/** Running a link's rules (worker/rules/evaluate.ts) over each variable (worker/rules/variables.ts). */
import { describe, expect, it } from 'vitest';
import { NO_CAMPAIGN } from '../../shared/campaign.ts';
import { detectDevice } from '../../shared/device.ts';
import type { LinkRule as Rule } from '../../shared/link-rules.ts';
import { type CompiledRules, compileRules } from '../../worker/rules/compile.ts';
import { decideFor, evaluateRules } from '../../worker/rules/evaluate.ts';
import { deviceKind, inputOf, plainQuery, type RuleInput } from '../../worker/rules/variables.ts';

const HOSTS = ['shop.example.com'];
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';
const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230805 MMWEBID/1234 MicroMessenger/8.0.42.2460(0x28002A3B) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';
const HARMONY_NEXT =
  'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300';
const HARMONY_TABLET =
  'Mozilla/5.0 (Tablet; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 HuaweiBrowser/5.0.4.300';
const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

const NOW = Date.parse('2027-03-01T12:30:00Z');

function input(
  userAgent: string,
  {
    acceptLanguage = 'en-US,en;q=0.9',
    country = 'US',
    region = 'CA',
    signed = {},
    query = '',
  }: {
    acceptLanguage?: string;
    country?: string;
    region?: string;
    signed?: Record<string, string>;
    query?: string;
  } = {},
): RuleInput {
  const device = detectDevice({ userAgent, acceptLanguage });
  const campaign = { ...NO_CAMPAIGN, signed };
  return inputOf(device, { country, regionCode: region }, campaign, new URLSearchParams(query), NOW);
}

function compiled(rules: Rule[]): CompiledRules {
  const result = compileRules(rules, HOSTS);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.compiled;
}

/** Whether `when` holds for `at`. */
function holds(when: string, at: RuleInput): boolean {
  const decision = evaluateRules(compiled([{ when, action: 'store' }]), at, HOSTS);
  expect(decision.failures).toEqual([]);
  return decision.action.action === 'store';
}

describe('each variable', () => {
  it('os, os_version and atLeast', () => {
    const iphone = input(IPHONE);
    expect(holds('os == "iOS" && os_version == "17.4.1"', iphone)).toBe(true);
    expect(holds('os_version.atLeast("17.2")', iphone)).toBe(true);
    expect(holds('os_version.atLeast("17.5")', iphone)).toBe(false);
    expect(holds('os == "Android"', input(ANDROID_PHONE))).toBe(true);
    expect(holds('os == "PC"', input(MAC))).toBe(true);
  });

  it('device: phone, tablet or desktop', () => {
    expect(input(IPHONE).device).toBe('phone');
    expect(input(IPAD).device).toBe('tablet');
    expect(input(ANDROID_PHONE).device).toBe('phone');
    expect(input(ANDROID_TABLET).device).toBe('tablet');
    expect(input(HARMONY_NEXT).device).toBe('phone');
    expect(input(HARMONY_TABLET).device).toBe('tablet');
    expect(input(MAC).device).toBe('desktop');
    expect(holds('device == "tablet"', input(IPAD))).toBe(true);
    expect(
      deviceKind({ mobile: true, userAgent: 'Mozilla/5.0 (iPad)', operatingSystem: 'iOS', device_system_name: 'iOS' }),
    ).toBe('tablet');
  });

  it('browser, in_app and super_app', () => {
    expect(holds('browser == "Chrome"', input(ANDROID_PHONE))).toBe(true);
    const wechat = input(WECHAT_ANDROID);
    expect(holds('in_app == "WeChat" && super_app', wechat)).toBe(true);
    expect(holds('in_app == "" && !super_app', input(IPHONE))).toBe(true);
  });

  it('harmony', () => {
    expect(holds('harmony && os == "Harmony"', input(HARMONY_NEXT))).toBe(true);
    expect(holds('harmony', input(ANDROID_PHONE))).toBe(false);
  });

  it('country, region and language', () => {
    const visitor = input(IPHONE, { country: 'CN', region: 'GD', acceptLanguage: 'zh-CN,zh;q=0.9' });
    expect(holds('country == "CN" && region == "GD" && language == "zh"', visitor)).toBe(true);
    expect(holds('country in ["US", "CA"]', input(IPHONE))).toBe(true);
    expect(input(IPHONE, { country: '' }).country).toBe('');
  });

  it('channel and inviter, from the signed token only', () => {
    const signed = input(IPHONE, { signed: { channel: 'poster', inviter: 'u42' } });
    expect(holds('channel == "poster" && inviter == "u42"', signed)).toBe(true);
    const typed = input(IPHONE, { query: 'channel=poster&inviter=u42' });
    expect(holds('channel == "" && inviter == ""', typed)).toBe(true);
    expect(holds('query.channel == "poster"', typed)).toBe(true);
  });

  it('query: plain parameters, first value, d left out, bounded', () => {
    const visitor = input(IPHONE, { query: 'utm_source=ads&utm_source=other&d=token' });
    expect(holds('query.utm_source == "ads" && !("d" in query)', visitor)).toBe(true);
    expect(holds('has(query.constructor)', visitor)).toBe(false);
    const many = new URLSearchParams(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'x']));
    expect(plainQuery(many).size).toBe(20);
    expect(plainQuery(new URLSearchParams({ long: 'x'.repeat(257), [`${'n'.repeat(33)}`]: 'x' })).size).toBe(0);
  });

  it('now: a timestamp, its parts in a time zone', () => {
    const visitor = input(IPHONE);
    expect(holds('now > timestamp("2027-01-01T00:00:00Z")', visitor)).toBe(true);
    expect(holds('now.getHours("Asia/Shanghai") == 20', visitor)).toBe(true);
  });
});

describe('evaluating rules', () => {
  const rules = compiled([
    { when: 'country == "CN"', action: 'url', url: 'https://shop.example.com/cn' },
    { when: 'os == "iOS"', action: 'store' },
    { when: 'true', action: 'page', variant: 'b' },
  ]);

  it('takes the first rule that holds, in order', () => {
    expect(evaluateRules(rules, input(IPHONE, { country: 'CN' }), HOSTS)).toEqual({
      action: { action: 'url', url: 'https://shop.example.com/cn' },
      rule: 0,
      failures: [],
    });
    expect(evaluateRules(rules, input(IPHONE), HOSTS).rule).toBe(1);
    expect(evaluateRules(rules, input(ANDROID_PHONE), HOSTS)).toMatchObject({
      action: { action: 'page', variant: 'b' },
      rule: 2,
    });
  });

  it('gives the page when no rule holds, and when there are none', () => {
    const one = compiled([{ when: 'os == "iOS"', action: 'store' }]);
    expect(evaluateRules(one, input(ANDROID_PHONE), HOSTS)).toEqual({
      action: { action: 'page' },
      rule: null,
      failures: [],
    });
    expect(evaluateRules(compiled([]), input(IPHONE), HOSTS).action).toEqual({ action: 'page' });
  });

  it('falls through a rule that fails at run time, and reports it', () => {
    const failing = compiled([
      { when: 'query.utm == "x"', action: 'store' },
      { when: 'now.getHours("No/Such_Zone") > 1', action: 'store' },
      { when: 'os == "iOS"', action: 'deep-link', path: '/welcome' },
    ]);
    const decision = evaluateRules(failing, input(IPHONE), HOSTS);
    expect(decision.action).toEqual({ action: 'deep-link', path: '/welcome' });
    expect(decision.rule).toBe(2);
    expect(decision.failures.map(({ index }) => index)).toEqual([0, 1]);
    expect(decision.failures[0]?.error).toMatch(/No such key: utm/);
  });

  it('never follows a URL whose host has left the allow list since it was written', () => {
    const decision = evaluateRules(rules, input(IPHONE, { country: 'CN' }), []);
    expect(decision.rule).toBe(1);
    expect(decision.failures).toEqual([
      { index: 0, error: 'the host of https://shop.example.com/cn is not on links.allowed_hosts' },
    ]);
  });
});

describe('bots and previewers', () => {
  it('never get a redirect: store, URL and deep link all give the page', () => {
    const bot = input(SLACKBOT, { country: 'CN' });
    const verdict = { bot: true };
    for (const rule of [
      { when: 'true', action: 'url', url: 'https://shop.example.com/' },
      { when: 'true', action: 'store' },
      { when: 'true', action: 'deep-link', path: '/x' },
    ] satisfies Rule[]) {
      expect(decideFor(compiled([rule]), bot, verdict, HOSTS).action).toEqual({ action: 'page' });
    }
    expect(decideFor(compiled([{ when: 'true', action: 'page', variant: 'b' }]), bot, verdict, HOSTS).action).toEqual({
      action: 'page',
      variant: 'b',
    });
  });

  it('a person with the same rules is redirected', () => {
    const rule: Rule = { when: 'true', action: 'store' };
    expect(decideFor(compiled([rule]), input(IPHONE), { bot: false }, HOSTS).action).toEqual({ action: 'store' });
  });
});
