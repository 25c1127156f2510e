/**
 * The traffic mix's agents (docs/benchmarks.md): a fixed list of distinct real agents shipped with the
 * bench in tools/bench/traffic-agents.json, each with the page or package it was published in. Real
 * visitors never repeat one agent, so the mix cycles through all of them. The list is written once by
 * tools/traffic-agents.ts from the project's corpus and the `user-agents` package's real-traffic data;
 * the bench only reads it, so every run sends the same agents.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';

export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];

export interface TrafficAgent {
  /** The User-Agent header, byte for byte as published. */
  agent: string;
  device: Device;
  /** Where the agent was published: a page's URL, or `npm:<package>@<version>`. */
  source: string;
}

/** The least number of distinct agents the mix needs (docs/benchmarks.md). */
export const MIN_AGENTS = 1000;

const AgentsSchema = v.array(
  v.strictObject({
    agent: v.pipe(v.string(), v.minLength(1)),
    device: v.picklist(DEVICES),
    source: v.pipe(v.string(), v.minLength(1)),
  }),
);

/** Tablets among agents whose source says only "mobile": iPads and Android tablets' usual tokens. */
const TABLET = /iPad|Tablet|\bSM-[TXP]\d|\bTab\b|Kindle|Silk\//;

/** A device from a mobile flag and the agent's own tokens. */
export function deviceOf(agent: string, mobile: boolean): Device {
  if (TABLET.test(agent)) return 'tablet';
  return mobile ? 'mobile' : 'desktop';
}

/** The agents in order of first appearance, one entry per distinct agent (the first source kept). */
export function distinctAgents(candidates: readonly TrafficAgent[]): TrafficAgent[] {
  const seen = new Set<string>();
  return candidates.filter(({ agent }) => {
    const key = agent.trim();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Checks a list: every entry well formed, no agent twice, at least `MIN_AGENTS`. Returns it typed. */
export function validTrafficAgents(data: unknown): TrafficAgent[] {
  const agents = v.parse(AgentsSchema, data);
  const distinct = new Set(agents.map(({ agent }) => agent)).size;
  if (distinct !== agents.length) throw new Error(`traffic agents: ${agents.length - distinct} repeated`);
  if (distinct < MIN_AGENTS) throw new Error(`traffic agents: ${distinct} distinct, fewer than ${MIN_AGENTS}`);
  return agents;
}

export const TRAFFIC_AGENTS_FILE = new URL('./traffic-agents.json', import.meta.url);

/** The shipped list, checked. */
export function readTrafficAgents(): TrafficAgent[] {
  return validTrafficAgents(JSON.parse(readFileSync(TRAFFIC_AGENTS_FILE, 'utf8')));
}
