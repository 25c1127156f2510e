/**
 * `node tools/traffic-agents.ts`: writes tools/bench/traffic-agents.json, the traffic mix's agents
 * (tools/bench/traffic-agents.ts, docs/benchmarks.md), from the project's published agents
 * (tests/fixtures/ua-*.tsv, each row with its page) and the `user-agents` package's real-traffic data.
 * Run once when the sources change; the bench reads the committed file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib/run.ts';
import { readCorpus } from '../tests/fixtures/ua-corpus.ts';
import {
  DEVICES,
  type Device,
  deviceOf,
  distinctAgents,
  TRAFFIC_AGENTS_FILE,
  type TrafficAgent,
  validTrafficAgents,
} from './bench/traffic-agents.ts';

/** Rows of a tab-separated file with a header line, as records by column name. */
function tsv(path: string): Record<string, string>[] {
  const [header = '', ...lines] = readFileSync(join(ROOT, path), 'utf8').split('\n').filter(Boolean);
  const columns = header.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
  });
}

interface RealTrafficAgent {
  userAgent: string;
  deviceCategory: Device;
}

const PACKAGE = 'node_modules/user-agents';
const { version } = JSON.parse(readFileSync(join(ROOT, PACKAGE, 'package.json'), 'utf8')) as { version: string };
const realTraffic = JSON.parse(
  readFileSync(join(ROOT, PACKAGE, 'dist/user-agents.json'), 'utf8'),
) as RealTrafficAgent[];

const mobileOs = (os: string): boolean => os === 'iOS' || os === 'Android' || os === 'Harmony';
const candidates: TrafficAgent[] = [
  ...readCorpus().map((row) => ({ agent: row.agent, device: deviceOf(row.agent, row.mobile), source: row.source })),
  ...tsv('tests/fixtures/ua-in-app-researched.tsv').map((row) => ({
    agent: row.ua ?? '',
    device: deviceOf(row.ua ?? '', mobileOs(row.operatingSystem ?? '')),
    source: row.source ?? '',
  })),
  ...tsv('tests/fixtures/ua-people-researched.tsv').map((row) => ({
    agent: row.ua ?? '',
    device: deviceOf(row.ua ?? '', row.mobile === 'true'),
    source: row.source ?? '',
  })),
  ...realTraffic.map((row) => ({
    agent: row.userAgent,
    device: row.deviceCategory,
    source: `npm:user-agents@${version}`,
  })),
];

const agents = validTrafficAgents(distinctAgents(candidates));
writeFileSync(TRAFFIC_AGENTS_FILE, `${JSON.stringify(agents, null, 2)}\n`);
const counts = DEVICES.map((device) => `${device} ${agents.filter((a) => a.device === device).length}`);
console.log(`${agents.length} agents (${counts.join(', ')}) written to ${TRAFFIC_AGENTS_FILE.pathname}`);
