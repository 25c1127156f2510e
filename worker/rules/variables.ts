/**
 * What a link's rule may read (docs/smart-links.md#variables): one table of the variables, their CEL
 * types and meanings, from which the CEL environment is declared and the document's table is checked
 * (tests/unit/docs-smart-links.test.ts), and the one function that reads them from a request.
 */
import type { Context } from 'hono';
import type { Campaign } from '../../shared/campaign.ts';
import type { DeviceInfo } from '../../shared/device.ts';
import type { AppEnv } from '../env.ts';

/** One variable a rule may read: its CEL type, an example value and what it is. */
export interface Variable {
  name: string;
  /** The CEL type the environment declares (`google.protobuf.Timestamp` is CEL's `timestamp`). */
  type: 'string' | 'bool' | 'map<string, string>' | 'google.protobuf.Timestamp';
  example: string;
  meaning: string;
}

/** The variables, in the document's order. */
export const VARIABLES = [
  {
    name: 'os',
    type: 'string',
    example: '"iOS"',
    meaning: 'The system the page offers a download for: `iOS`, `Android`, `Harmony` or `PC`.',
  },
  {
    name: 'os_version',
    type: 'string',
    example: '"17.4.1"',
    meaning: 'The system\'s version as the agent names it, `""` when it names none; compare with `.atLeast("17.2")`.',
  },
  { name: 'device', type: 'string', example: '"phone"', meaning: '`phone`, `tablet` or `desktop`.' },
  {
    name: 'browser',
    type: 'string',
    example: '"Chrome"',
    meaning: "The browser's name (`Chrome`, `Mobile Safari`, …), or the in-app browser's app (`WeChat`).",
  },
  {
    name: 'in_app',
    type: 'string',
    example: '"WeChat"',
    meaning: 'The app whose in-app browser the visitor is in (docs/device.md\'s table), `""` outside one.',
  },
  {
    name: 'super_app',
    type: 'bool',
    example: 'true',
    meaning:
      "The in-app browser is a super-app's, one that runs mini programs: WeChat, WeCom, QQ, Alipay, DingTalk, Douyin or Baidu.",
  },
  {
    name: 'harmony',
    type: 'bool',
    example: 'false',
    meaning: 'The system is HarmonyOS (2–4, which installs APKs, or NEXT).',
  },
  {
    name: 'country',
    type: 'string',
    example: '"CN"',
    meaning: 'The visitor\'s country (ISO 3166-1 alpha-2, from Cloudflare), `""` when unknown.',
  },
  {
    name: 'region',
    type: 'string',
    example: '"GD"',
    meaning: 'The visitor\'s region within the country (ISO 3166-2 code, from Cloudflare), `""` when unknown.',
  },
  {
    name: 'language',
    type: 'string',
    example: '"zh"',
    meaning: "The primary language of the visitor's first `Accept-Language` choice, lower case.",
  },
  {
    name: 'channel',
    type: 'string',
    example: '"poster"',
    meaning: 'The link\'s channel, from its signed token only, `""` without one.',
  },
  {
    name: 'inviter',
    type: 'string',
    example: '"u42"',
    meaning: 'The link\'s inviter, from its signed token only, `""` without one.',
  },
  {
    name: 'query',
    type: 'map<string, string>',
    example: '{"utm_source": "ads"}',
    meaning:
      'The request\'s plain query parameters (the first value of each; `d` left out; at most 20, names ≤ 32 and values ≤ 256 characters). Test a name with `has(query.x)` or `"x" in query` before reading it.',
  },
  {
    name: 'now',
    type: 'google.protobuf.Timestamp',
    example: 'timestamp("2027-01-01T00:00:00Z")',
    meaning: 'The time of the request.',
  },
] as const satisfies readonly Variable[];

export type VariableName = (typeof VARIABLES)[number]['name'];

/** What one request gives the rules: a value for every variable. */
export interface RuleInput {
  os: string;
  os_version: string;
  device: 'phone' | 'tablet' | 'desktop';
  browser: string;
  in_app: string;
  super_app: boolean;
  harmony: boolean;
  country: string;
  region: string;
  language: string;
  channel: string;
  inviter: string;
  /** A `Map`: CEL reads a map's own entries only, so no name reaches an object's prototype. */
  query: ReadonlyMap<string, string>;
  now: Date;
}

/** The in-app browsers of super-apps: apps with a mini-program platform of their own. */
export const SUPER_APPS: readonly string[] = ['WeChat', 'WeCom', 'QQ', 'Alipay', 'DingTalk', 'Douyin', 'Baidu'];

/** The query's bounds (the same as a campaign's plain parameters, campaign/query-data.ts). */
export const QUERY_BOUNDS = { maxParams: 20, maxNameLength: 32, maxValueLength: 256 } as const;

// Tablets: iPads, HarmonyOS NEXT's `(Tablet; OpenHarmony …)`, Kindle Fire, and Android agents that
// leave out `Mobile` (Android's own convention for tablets' browsers).
const TABLET = /\biPad\b|^Mozilla\/5\.0 \(Tablet;|\bKF[A-Z]{2,6}\b|\bSilk\/|\bTablet\b/;
const PHONE_TOKEN = /\bMobile\b|\bPhone\b/;

/** The kind of `device`: a handheld is a tablet or a phone, anything else a desktop. */
export function deviceKind(
  device: Pick<DeviceInfo, 'mobile' | 'userAgent' | 'operatingSystem' | 'device_system_name'>,
): RuleInput['device'] {
  if (!device.mobile) return 'desktop';
  const agent = device.userAgent;
  if (device.device_system_name === 'iPadOS' || TABLET.test(agent)) return 'tablet';
  const android = device.operatingSystem === 'Android' || device.operatingSystem === 'Harmony';
  return android && !PHONE_TOKEN.test(agent) ? 'tablet' : 'phone';
}

/** The request's plain query parameters, bounded: first value of each, `d` (the signed token) left out. */
export function plainQuery(params: URLSearchParams): Map<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of params) {
    if (query.size >= QUERY_BOUNDS.maxParams) break;
    if (name === 'd' || query.has(name) || name.length > QUERY_BOUNDS.maxNameLength) continue;
    if (value.length <= QUERY_BOUNDS.maxValueLength) query.set(name, value);
  }
  return query;
}

/** The rules' input from what detection, Cloudflare and the campaign tell of a request. */
export function inputOf(
  device: DeviceInfo,
  place: { country?: unknown; regionCode?: unknown },
  campaign: Campaign,
  params: URLSearchParams,
  now: number,
): RuleInput {
  const inApp = device.inApp?.name ?? '';
  return {
    os: device.operatingSystem,
    os_version: device.osVersion,
    device: deviceKind(device),
    browser: device.browser,
    in_app: inApp,
    super_app: SUPER_APPS.includes(inApp),
    harmony: device.operatingSystem === 'Harmony',
    country: typeof place.country === 'string' ? place.country : '',
    region: typeof place.regionCode === 'string' ? place.regionCode : '',
    language: device.language,
    channel: campaign.signed.channel ?? '',
    inviter: campaign.signed.inviter ?? '',
    query: plainQuery(params),
    now: new Date(now),
  };
}

/** The rules' input of the request `c`, under `campaign` (the link's, for a short link). */
export function requestInput(c: Context<AppEnv>, campaign: Campaign, now = Date.now()): RuleInput {
  const cf = c.req.raw.cf;
  const place = { country: cf?.country, regionCode: cf?.regionCode };
  return inputOf(c.get('device'), place, campaign, new URL(c.req.url).searchParams, now);
}

/** A variable's type as the document names it (CEL's spelling). */
const shownType = (type: Variable['type']): string => (type === 'google.protobuf.Timestamp' ? 'timestamp' : type);

/** The variables as docs/smart-links.md#variables shows them (checked by tests/unit/docs-smart-links.test.ts). */
export function variablesTable(): string {
  const rows = [
    ['Variable', 'Type', 'Example', 'What it is'],
    ...VARIABLES.map(({ name, type, example, meaning }) => [`\`${name}\``, shownType(type), `\`${example}\``, meaning]),
  ];
  const widths = rows[0]?.map((_, at) => Math.max(...rows.map((row) => [...(row[at] ?? '')].length))) ?? [];
  const line = (cells: string[]) =>
    `| ${cells.map((cell, at) => cell + ' '.repeat((widths[at] ?? 0) - [...cell].length)).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}
