/**
 * Detection measured on agents labelled by others (docs/device.md, "Measured accuracy"):
 * - `user-agents` (npm): real-traffic agents with the browser's own `navigator.platform` and a
 *   device category — the labels for OS and mobile;
 * - `crawler-user-agents` (npm): crawler patterns, each with real instances — all must be bots;
 * - in-app agents researched per app with their public sources (tests/fixtures/ua-in-app-researched.tsv)
 *   and the in-app rows of tests/fixtures/ua-corpus.tsv — the label for the in-app name;
 * - phones and browsers other detectors got wrong, from the public reports that name them
 *   (tests/fixtures/ua-people-researched.tsv: models isbot takes for bots, Kindle, Sogou, Windows IoT).
 * The targets are asserted here; the figures are printed for docs/device.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDevice } from '../../shared/device.ts';

interface RealTrafficAgent {
  userAgent: string;
  platform: string;
  deviceCategory: 'desktop' | 'mobile' | 'tablet';
}

interface CrawlerEntry {
  pattern: string;
  instances: string[];
}

interface Person {
  operatingSystem: string;
  mobile: boolean;
  agent: string;
}

interface InAppAgent {
  app: string;
  operatingSystem: string;
  agent: string;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;

function readTsv(path: string): string[][] {
  const [, ...lines] = readFileSync(new URL(path, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean);
  return lines.map((line) => line.split('\t'));
}

const unique = <T>(items: T[], key: (item: T) => string): T[] => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];

// The browser's platform names a device family; an agent that names another family was overridden
// (DevTools device emulation keeps the host's `Linux x86_64`, UA switchers) and the package's labels
// no longer describe what the agent claims — such rows are left out of the OS measure, and counted.
function agentFamily(agent: string): string {
  if (/iPhone|iPad|iPod/.test(agent)) return 'ios';
  if (/Android/.test(agent)) return 'android';
  if (/Windows/.test(agent)) return 'windows';
  if (/Macintosh/.test(agent)) return 'mac';
  return /Linux|X11|CrOS/.test(agent) ? 'linux' : 'other';
}

function consistent({ platform, userAgent }: RealTrafficAgent): boolean {
  const family = agentFamily(userAgent);
  if (platform === 'iPhone' || platform === 'iPad') return family === 'ios';
  if (platform === 'Win32') return family === 'windows';
  if (platform === 'MacIntel') return family === 'mac';
  if (platform.startsWith('Linux')) return family === 'android' || family === 'linux';
  return false;
}

function expectedOs({ platform, deviceCategory }: RealTrafficAgent): string {
  if (platform === 'iPhone' || platform === 'iPad') return 'iOS';
  if (platform.startsWith('Linux') && deviceCategory !== 'desktop') return 'Android';
  return 'PC';
}

// A plain browser's agent carries only engine and browser products; any other product (an app's
// token such as `GSA/`, `Snapchat/`, `Barcelona`) leaves it out of the plain set, which the package
// does not label as in-app or not.
const BROWSER_PRODUCTS = new Set(
  'Mozilla AppleWebKit Safari Mobile Chrome Version CriOS Gecko Firefox Brave OPR OPT Edg EdgA EdgiOS Ddg DuckDuckGo FxiOS SamsungBrowser YaBrowser'.split(
    ' ',
  ),
);
function isPlainBrowser(agent: string): boolean {
  return agent
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .every((token) => BROWSER_PRODUCTS.has(token.split('/')[0] ?? ''));
}

const realTraffic = unique(
  readJson<RealTrafficAgent[]>('../../node_modules/user-agents/dist/user-agents.json'),
  (row) => row.userAgent,
);
const crawlers = unique(
  readJson<CrawlerEntry[]>('../../node_modules/crawler-user-agents/crawler-user-agents.json').flatMap((entry) =>
    entry.instances.map((agent) => ({ pattern: entry.pattern, agent })),
  ),
  (row) => row.agent,
);
const inAppAgents: InAppAgent[] = [
  ...readTsv('../fixtures/ua-in-app-researched.tsv').map(([app = '', operatingSystem = '', agent = '']) => ({
    app,
    operatingSystem,
    agent,
  })),
  ...readTsv('../fixtures/ua-corpus.tsv')
    .filter(([, , inApp]) => inApp !== '-')
    .map(([, operatingSystem = '', app = '', , , , agent = '']) => ({ app, operatingSystem, agent })),
];

const researchedPeople: Person[] = readTsv('../fixtures/ua-people-researched.tsv').map(
  ([operatingSystem = '', mobile = '', agent = '']) => ({ operatingSystem, mobile: mobile === 'true', agent }),
);

const share = (hits: number, total: number): number => (total === 0 ? 1 : hits / total);
const percent = (value: number): string => `${(value * 100).toFixed(2)} %`;

describe('detection on independently labelled agents', () => {
  const labelled = realTraffic.filter(consistent);
  const people = realTraffic.map((row) => ({ row, device: detectDevice({ userAgent: row.userAgent }) }));
  const osRight = people.filter(({ row, device }) => consistent(row) && device.operatingSystem === expectedOs(row));
  const mobileRight = people.filter(({ row, device }) => device.mobile === (row.deviceCategory !== 'desktop'));
  const plain = people.filter(({ row }) => isPlainBrowser(row.userAgent));
  const plainInApp = plain.filter(({ device }) => device.inApp !== null);
  const inApp = inAppAgents.map((row) => ({ row, device: detectDevice({ userAgent: row.agent }) }));
  const inAppRight = inApp.filter(
    ({ row, device }) => device.inApp?.name === row.app && device.operatingSystem === row.operatingSystem,
  );
  const researched = researchedPeople.map((row) => ({ row, device: detectDevice({ userAgent: row.agent }) }));
  const researchedOsRight = researched.filter(({ row, device }) => device.operatingSystem === row.operatingSystem);
  const researchedMobileRight = researched.filter(({ row, device }) => device.mobile === row.mobile);
  const crawlerBots = crawlers.filter(({ agent }) => detectDevice({ userAgent: agent }).bot);
  const peopleAsBots = [...people, ...inApp, ...researched].filter(({ device }) => device.bot);
  const allPeople = people.length + inApp.length + researched.length;

  const figures = {
    os: share(osRight.length + researchedOsRight.length, labelled.length + researched.length),
    mobile: share(mobileRight.length + researchedMobileRight.length, people.length + researched.length),
    inAppRecall: share(inAppRight.length, inApp.length),
    crawlers: share(crawlerBots.length, crawlers.length),
    peopleAsBots: share(peopleAsBots.length, allPeople),
  };

  it('has corpora large enough to measure against', () => {
    expect(realTraffic.length).toBeGreaterThan(500);
    expect(crawlers.length).toBeGreaterThan(1500);
    expect(inAppAgents.length).toBeGreaterThan(60);
    expect(researchedPeople.length).toBeGreaterThan(20);
    expect(plain.length).toBeGreaterThan(realTraffic.length / 2);
    console.info(
      [
        `real-traffic agents ${realTraffic.length} (OS-labelled ${labelled.length}, plain browsers ${plain.length}), researched people ${researched.length}`,
        `OS ${percent(figures.os)}`,
        `mobile ${percent(figures.mobile)}`,
        `in-app named right ${percent(figures.inAppRecall)} of ${inApp.length}, plain browsers taken for in-app ${plainInApp.length}`,
        `crawlers as bots ${percent(figures.crawlers)} of ${crawlers.length}`,
        `people as bots ${percent(figures.peopleAsBots)}`,
      ].join('; '),
    );
  });

  it('names the operating system of at least 99.95 % of real-traffic agents', () => {
    expect(figures.os).toBeGreaterThanOrEqual(0.9995);
  });

  it('says mobile for at least 99.7 % as the device category does', () => {
    expect(figures.mobile).toBeGreaterThanOrEqual(0.997);
  });

  it('names the in-app browser of at least 99.5 % of researched in-app agents', () => {
    expect(figures.inAppRecall).toBeGreaterThanOrEqual(0.995);
  });

  it('takes no plain browser for an in-app browser', () => {
    expect(plainInApp.map(({ row }) => row.userAgent)).toEqual([]);
  });

  it('takes at least 99.5 % of crawler instances for bots', () => {
    expect(figures.crawlers).toBeGreaterThanOrEqual(0.995);
  });

  it('takes at most 0.1 % of people for bots', () => {
    expect(figures.peopleAsBots).toBeLessThanOrEqual(0.001);
  });

  it('classifies every researched phone and browser as its report says, a person and no app', () => {
    const wrong = researched.filter(
      ({ row, device }) =>
        device.operatingSystem !== row.operatingSystem || device.mobile !== row.mobile || device.bot || device.inApp,
    );
    expect(wrong.map(({ row }) => row.agent)).toEqual([]);
  });
});
