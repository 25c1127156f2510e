/**
 * A link's rules (docs/smart-links.md#speed): evaluating 100 rules on one link for one request, where
 * only the last one holds, so every rule is tried; on one core in Node (the same V8 as workerd).
 * Requests vary (systems, countries, in-app browsers, query parameters) and are built once, as the
 * worker builds a request's input once and hands it to every rule.
 */
import { detectDevice } from '../../shared/device.ts';
import type { LinkRule as Rule } from '../../shared/link-rules.ts';
import { IN_APP_AGENTS } from '../../tests/fixtures/agents.ts';
import { compileRules } from '../../worker/rules/compile.ts';
import { evaluateRules } from '../../worker/rules/evaluate.ts';
import { inputOf, type RuleInput } from '../../worker/rules/variables.ts';
import { type BenchSection, IPHONE_UA } from './context.ts';

const BUDGET_MS = 0.02;
const HOSTS = ['shop.example.com'];
const COUNTRIES = ['DE', 'FR', 'JP', 'BR', 'IN', 'KR', 'MX', 'ID', 'TR', 'VN'];

/**
 * 99 rules a marketer writes (by country, system, version, in-app browser, query, language, campaign,
 * time) that do not hold, then one that does.
 */
export function hundredRules(): Rule[] {
  const shapes = [
    (i: number) => `country == "${COUNTRIES[i % 10]}${i}" && os == "iOS"`,
    (i: number) => `in_app == "WeChat" && os_version.atLeast("${20 + i}")`,
    (i: number) => `has(query.utm_source) && query.utm_source == "campaign-${i}"`,
    (i: number) => `language in ["x${i}", "y${i}"] && device == "tablet"`,
    (i: number) => `channel == "poster-${i}" || inviter == "u${i}"`,
    (i: number) => `harmony && region == "R${i}"`,
    (i: number) => `super_app && browser.startsWith("Nope${i}")`,
    (i: number) => `country in ["${i}", "X${i}", "Y${i}"] && device != "desktop"`,
  ];
  // A time window on every 16th rule: `timestamp("…")` parses its text on each run (~0.4 µs).
  const when = (i: number): string =>
    i % 16 === 15
      ? `now < timestamp("2001-01-01T00:00:00Z") && country != "${i}"`
      : (shapes[i % shapes.length]?.(i) ?? 'false');
  const rules = Array.from({ length: 99 }, (_, i): Rule => {
    if (i % 3 === 0) return { when: when(i), action: 'store' };
    if (i % 3 === 1) return { when: when(i), action: 'url', url: `https://shop.example.com/${i}` };
    return { when: when(i), action: 'page' };
  });
  rules.push({ when: 'true', action: 'page', variant: 'b' });
  return rules;
}

/** Requests of several kinds: an iPhone and the in-app agents, in several countries, with and without a query. */
function requests(): RuleInput[] {
  const agents = [IPHONE_UA, ...IN_APP_AGENTS.map(({ agent }) => agent)].slice(0, 40);
  return agents.flatMap((userAgent, i) => {
    const device = detectDevice({ userAgent, acceptLanguage: i % 2 ? 'zh-CN,zh;q=0.9' : 'en-US' });
    const query = new URLSearchParams(i % 3 ? { utm_source: 'ads', ref: String(i) } : {});
    const place = { country: COUNTRIES[i % 10], regionCode: 'XX' };
    return [inputOf(device, place, { signed: { channel: 'spring' }, plain: {} }, query, Date.now())];
  });
}

export const rules: BenchSection = {
  title: "A link's rules (Node, one core)",
  async run({ duration }) {
    const written = hundredRules();
    const compileStart = performance.now();
    const compiled = compileRules(written, HOSTS);
    const compileMs = performance.now() - compileStart;
    if (!compiled.ok) throw new Error(compiled.errors.join('\n'));
    const inputs = requests();
    const times: number[] = [];
    const run = (record: boolean, ms: number): void => {
      const until = performance.now() + ms;
      for (let n = 0; performance.now() < until; n += 1) {
        const input = inputs[n % inputs.length] as RuleInput;
        const start = performance.now();
        const decision = evaluateRules(compiled.compiled, input, HOSTS);
        const took = performance.now() - start;
        if (decision.rule !== 99) throw new Error(`rule ${decision.rule} held: the bench's rules are wrong`);
        if (record) times.push(took);
      }
    };
    run(false, 500); // warm-up: let the JIT settle
    run(true, Math.min(duration, 3) * 1000);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
    const p99 = at(0.99);
    return [
      {
        name: `100 rules on one link, the last holds (${times.length.toLocaleString('en-US')} requests)`,
        value: `${(at(0.5) * 1000).toFixed(1)} µs median`,
      },
      {
        name: 'Evaluating 100 rules, p99',
        value: `${(p99 * 1000).toFixed(1)} µs`,
        budget: { limit: `≤ ${BUDGET_MS} ms`, ok: p99 <= BUDGET_MS },
      },
      { name: 'Compiling 100 rules (when the link is written)', value: `${compileMs.toFixed(1)} ms` },
    ];
  },
};
