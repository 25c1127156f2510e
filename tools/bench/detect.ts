/**
 * Device detection speed (docs/device.md: one agent well under a millisecond): agents parsed per
 * second by `detectDevice` on a mixed corpus — the real agents of tests/fixtures/ua-corpus.tsv,
 * the test agents (in-app, browsers, desktops, crawlers) and a 16 KB hostile agent.
 */
import { detectDevice } from '../../shared/device.ts';
import {
  BROWSER_AGENTS,
  CRAWLER_AGENTS,
  DESKTOP_AGENTS,
  IN_APP_AGENTS,
  IPAD_MAC_AGENT,
} from '../../tests/fixtures/agents.ts';
import { readCorpus } from '../../tests/fixtures/ua-corpus.ts';
import type { BenchSection } from './context.ts';

/** A 16 KB agent built to make regular expressions backtrack; detection only sees its first 512 characters. */
export const HOSTILE_AGENT = `Mozilla/5.0 (${'Android ('.repeat(1800)}`;

/** The mixed corpus of real-looking agents, and how many of them are the real ones. */
export function mixedCorpus(): { agents: string[]; real: number } {
  const real = readCorpus().map((row) => row.agent);
  const ours = [
    ...IN_APP_AGENTS.map((a) => a.agent),
    ...BROWSER_AGENTS.map((a) => a.agent),
    ...DESKTOP_AGENTS.map((a) => a.agent),
    ...Object.values(CRAWLER_AGENTS),
    IPAD_MAC_AGENT,
  ];
  return { agents: [...real, ...ours], real: real.length };
}

function timeRounds(agents: string[], minimumMs: number): { parsed: number; ms: number } {
  let parsed = 0;
  const start = performance.now();
  while (performance.now() - start < minimumMs) {
    for (const userAgent of agents) detectDevice({ userAgent, acceptLanguage: 'zh-CN,zh;q=0.9' });
    parsed += agents.length;
  }
  return { parsed, ms: performance.now() - start };
}

/** Mean microseconds of one agent over `rounds` detections. */
function microsecondsOf(userAgent: string, rounds = 200): number {
  const start = performance.now();
  for (let i = 0; i < rounds; i++) detectDevice({ userAgent });
  return ((performance.now() - start) * 1000) / rounds;
}

export const detect: BenchSection = {
  title: 'Device detection (Node, one core)',
  async run({ duration }) {
    const { agents, real } = mixedCorpus();
    timeRounds(agents, 500); // warm-up: compile the regular expressions, let the JIT settle
    const { parsed, ms } = timeRounds(agents, Math.min(duration, 5) * 1000);
    const perSecond = (parsed / ms) * 1000;
    const mean = (ms * 1000) / parsed;
    const slowest = Math.max(...agents.map((userAgent) => microsecondsOf(userAgent)));
    const hostile = microsecondsOf(HOSTILE_AGENT, 50);
    return [
      { name: `Corpus (${agents.length} agents, ${real} real)`, value: 'in-app, browsers, desktops, bots, HarmonyOS' },
      { name: 'Agents parsed per second', value: Math.round(perSecond).toLocaleString('en-US') },
      { name: 'Mean time per agent', value: `${mean.toFixed(1)} µs`, budget: { limit: '≤ 500 µs', ok: mean <= 500 } },
      {
        name: 'Slowest agent of the corpus',
        value: `${slowest.toFixed(1)} µs`,
        budget: { limit: '< 1000 µs', ok: slowest < 1000 },
      },
      {
        name: 'Hostile 16 KB agent (cut to 512)',
        value: `${hostile.toFixed(1)} µs`,
        budget: { limit: '< 10 ms', ok: hostile < 10_000 },
      },
    ];
  },
};
