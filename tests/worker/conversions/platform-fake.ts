/**
 * A local fake of the ad platforms for the worker tests (docs/conversions.md#trying-it-locally): a
 * real HTTP server in Node that the worker inside workerd sends to with its real `fetch`, through
 * `CONVERSIONS_ORIGIN=<fake>/<key>` (and a postback's own URL). Each request is held to its platform's
 * path, headers and JSON Schema (platform-schemas.ts, validated with Ajv) and answered 400 when it
 * breaks one, as the platform would. Each test uses its own key:
 *
 * - `PUT /mode/<key>` `{ failRate, seed }`: that share of requests fails, half with 503 and half with
 *   no answer (the socket closed after 1.5 s), drawn from a seeded generator;
 * - `/<key>/<platform>/…` is the platform (meta, tiktok, ga4, snap, oceanengine, tencent, kuaishou, baidu,
 *   postback);
 * - `GET /log/<key>` answers what arrived: every request's platform and validity, and how many 2xx
 *   answers each (platform, event) got — the count "exactly once" is about.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020.js';
import type { TestProject } from 'vitest/node';
import { PLATFORM_SCHEMAS } from './platform-schemas.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the platforms' fake. */
    platformFake: string;
  }
}

/** What `GET /log/<key>` answers. */
export interface FakeLog {
  requests: { platform: string; valid: boolean; errors: string }[];
  /** 2xx answers per `<platform> <event key>`. */
  accepted: Record<string, number>;
  /** Bodies (parsed) of accepted requests, per platform. */
  bodies: Record<string, unknown[]>;
}

interface State extends FakeLog {
  failRate: number;
  random: () => number;
}

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ajv = new Ajv2020({ allErrors: false, strict: false });
const validators = Object.fromEntries(
  Object.entries(PLATFORM_SCHEMAS).map(([platform, schema]) => [platform, ajv.compile(schema)]),
);

/** Each platform's path (after `/<key>/<platform>`) and required headers or query, as documented. */
const PATHS: Record<string, RegExp> = {
  meta: /^\/v\d+\.\d+\/\d+\/events$/,
  tiktok: /^\/open_api\/v1\.3\/event\/track\/$/,
  ga4: /^\/mp\/collect$/,
  oceanengine: /^\/api\/v2\/conversion$/,
  snap: /^\/v3\/[\w-]+\/events$/,
  tencent: /^\/v1\.3\/user_actions\/add$/,
  kuaishou: /^\/track\/activate$/,
  baidu: /^\/ocpcapi\/api\/uploadConvertData$/,
  postback: /^\/hit$/,
};

/** The query each platform's document puts its token (and Tencent its call's time and nonce) in. */
const QUERY: Record<string, readonly string[]> = {
  snap: ['access_token'],
  tencent: ['access_token', 'timestamp', 'nonce'],
};

/** The event a request is about, as each platform would de-duplicate it. */
// biome-ignore lint/suspicious/noExplicitAny: the body passed its platform's schema just before
function eventKeyOf(platform: string, url: URL, body: any): string {
  switch (platform) {
    case 'meta':
    case 'tiktok':
      return String(body.data[0].event_id);
    case 'ga4':
      return String(body.events[0].params?.lander_event_id);
    case 'snap':
      return String(body.data[0].event_id);
    case 'tencent':
      return String(body.actions[0].outer_action_id);
    case 'oceanengine':
      return `${body.context.ad.callback}|${body.event_type}`;
    case 'kuaishou':
      return `${body.callback}|${body.event_type}`;
    case 'baidu':
      return `${body.conversionTypes[0].logidUrl}|${body.conversionTypes[0].newType}`;
    default:
      return String(url.searchParams.get('e'));
  }
}

/** Why the request breaks its platform's rules, or '' when it does not. */
function problemOf(platform: string, request: IncomingMessage, url: URL, text: string): string {
  const path = url.pathname.split('/').slice(3).join('/');
  if (!PATHS[platform]?.test(`/${path}`)) return `path /${path}`;
  if (platform === 'postback') return '';
  for (const name of QUERY[platform] ?? []) if (!url.searchParams.get(name)) return `query ${name}`;
  if (platform === 'tencent' && Math.abs(Number(url.searchParams.get('timestamp')) - Date.now() / 1000) > 300)
    return 'timestamp';
  if (platform === 'kuaishou') {
    if (request.method !== 'GET') return `method ${request.method}`;
    const query = Object.fromEntries(url.searchParams);
    const validate = validators.kuaishou;
    if (!validate) return 'no schema for kuaishou';
    return validate(query) ? '' : ajv.errorsText(validate.errors);
  }
  if (request.method !== 'POST') return `method ${request.method}`;
  if (!String(request.headers['content-type']).startsWith('application/json')) return 'content-type';
  if (platform === 'tiktok' && !request.headers['access-token']) return 'Access-Token header';
  if (platform === 'ga4' && !/^G-[A-Z0-9]+$/.test(url.searchParams.get('measurement_id') ?? ''))
    return 'measurement_id';
  if (platform === 'ga4' && !url.searchParams.get('api_secret')) return 'api_secret';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  const validate = validators[platform];
  if (!validate) return `no schema for ${platform}`;
  return validate(body) ? '' : ajv.errorsText(validate.errors);
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const states = new Map<string, State>();
  const stateOf = (key: string): State => {
    let state = states.get(key);
    if (!state) {
      state = { requests: [], accepted: {}, bodies: {}, failRate: 0, random: seeded(1) };
      states.set(key, state);
    }
    return state;
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const [, first = '', second = '', platform = ''] = url.pathname.split('/');
    const text = await textOf(request);
    if (first === 'mode' && request.method === 'PUT') {
      const { failRate = 0, seed = 1 } = JSON.parse(text) as { failRate?: number; seed?: number };
      Object.assign(stateOf(second), { failRate, random: seeded(seed) });
      response.writeHead(204).end();
      return;
    }
    if (first === 'log') {
      const { requests, accepted, bodies } = stateOf(second);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ requests, accepted, bodies }));
      return;
    }
    const state = stateOf(first);
    const problem = problemOf(second, request, url, text);
    state.requests.push({ platform: second, valid: problem === '', errors: problem });
    void platform;
    if (problem) {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: problem }));
      return;
    }
    const draw = state.random();
    if (draw < state.failRate / 2) {
      response.writeHead(503).end('busy');
      return;
    }
    if (draw < state.failRate) {
      setTimeout(() => request.socket.destroy(), 1_500);
      return;
    }
    const body =
      second === 'postback' || second === 'kuaishou' ? Object.fromEntries(url.searchParams) : JSON.parse(text);
    const event = `${second} ${eventKeyOf(second, url, body)}`;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}', () => {
      state.accepted[event] = (state.accepted[event] ?? 0) + 1;
      state.bodies[second] = [...(state.bodies[second] ?? []), body];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('platformFake', `http://127.0.0.1:${port}`);
  return () => new Promise((resolve) => server.close(() => resolve()));
}
