/**
 * A webhook receiver on 127.0.0.1 for the worker tests (docs/webhooks.md): a real HTTP server in
 * Node that the worker inside workerd delivers to with its real `fetch`, verifying every delivery
 * with the `standardwebhooks` library, as an operator's backend would. Each test uses its own key:
 *
 * - `POST /secret/<key>` (body: the endpoint's secret) tells it the secret to verify with;
 * - `PUT /mode/<key>` (body: a mode) changes how `/r/<key>` answers;
 * - `POST /r/<key>` is the endpoint; modes: `ok`, `fail-<n>` (503 for the first n attempts of each
 *   `webhook-id`, then 200), `down` (503), `throttle` (429 with `Retry-After: 120`), `gone` (410), `refuse` (422),
 *   `moved` (301 to `/r/<key>-moved`), `sleep` (answers after 12 s), `big` (200 with a 10 MB body);
 * - `GET /log/<key>` answers what arrived;
 * - `GET /dns-query?name=&type=` is a DNS-over-HTTPS JSON resolver of a few test names (`NAMES`),
 *   and of `<hex>.answer.test`, which resolves to the text its labels spell in hex (`answerName`):
 *   an AAAA record when it has a colon, an A record otherwise, written exactly so.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the receiver. */
    webhookReceiver: string;
  }
}

/** What `GET /log/<key>` answers. */
export interface ReceiverLog {
  /** Requests to `/r/<key>`, whatever they were answered. */
  requests: number;
  /** Requests whose signature `standardwebhooks` verified. */
  verified: number;
  /** Requests it refused to verify, with the library's reason. */
  unverified: string[];
  /** Attempts per `webhook-id`. */
  attempts: Record<string, number>;
  /** Verified bodies answered 2xx, in order of arrival. */
  delivered: unknown[];
  /** Requests whose 10 MB answer the client closed before it was all sent. */
  cutShort: number;
  /** How many signatures each request's `webhook-signature` held, in order of arrival. */
  signatures: number[];
}

interface State extends ReceiverLog {
  secret: string;
  mode: string;
}

const BIG = Buffer.alloc(10 * 1024 * 1024, 'x');

/** What the receiver's resolver (`/dns-query`) answers: A (1) and AAAA (28) records by name. */
const NAMES: Record<string, { type: number; data: string }[]> = {
  'public.test': [{ type: 1, data: '93.184.216.34' }],
  'private.test': [{ type: 1, data: '10.0.0.5' }],
  'loop6.test': [{ type: 28, data: '::1' }],
  'metadata.test': [
    { type: 1, data: '93.184.216.34' },
    { type: 1, data: '169.254.169.254' },
  ],
  'empty.test': [],
};

/** A name the receiver's resolver answers with `address`, written as given (webhook-fixtures.ts). */
function answerOf(name: string): { type: number; data: string }[] | undefined {
  const match = /^([\da-f.]+)\.answer\.test$/.exec(name);
  if (!match?.[1]) return undefined;
  const data = Buffer.from(match[1].replaceAll('.', ''), 'hex').toString('utf8');
  return [{ type: data.includes(':') ? 28 : 1, data }];
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const states = new Map<string, State>();
  const stateOf = (key: string): State => {
    let state = states.get(key);
    if (!state) {
      state = {
        secret: '',
        mode: 'ok',
        requests: 0,
        verified: 0,
        unverified: [],
        attempts: {},
        delivered: [],
        cutShort: 0,
        signatures: [],
      };
      states.set(key, state);
    }
    return state;
  };

  async function receive(state: State, key: string, request: IncomingMessage, response: ServerResponse) {
    const body = await bodyOf(request);
    state.requests += 1;
    const id = String(request.headers['webhook-id'] ?? '');
    const attempt = (state.attempts[id] ?? 0) + 1;
    state.attempts[id] = attempt;
    state.signatures.push(String(request.headers['webhook-signature'] ?? '').split(' ').length);
    let payload: unknown;
    try {
      payload = new Webhook(state.secret).verify(body, {
        'webhook-id': id,
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      });
      state.verified += 1;
    } catch (error) {
      state.unverified.push(error instanceof Error ? error.message : String(error));
      response.writeHead(400).end('bad signature');
      return;
    }
    const failFirst = /^fail-(\d+)$/.exec(state.mode);
    if (failFirst && attempt <= Number(failFirst[1])) return void response.writeHead(503).end('not yet');
    switch (state.mode) {
      case 'down':
        return void response.writeHead(503).end('down');
      case 'throttle':
        return void response.writeHead(429, { 'retry-after': '120' }).end('slow down');
      case 'gone':
        return void response.writeHead(410).end('gone');
      case 'refuse':
        return void response.writeHead(422).end('not for us');
      case 'moved':
        return void response.writeHead(301, { location: `/r/${key}-moved` }).end();
      case 'sleep':
        await new Promise((resolve) => setTimeout(resolve, 12_000));
        if (!response.destroyed) response.writeHead(200).end('late');
        return;
      case 'big': {
        state.delivered.push(payload);
        // Written in 64 KiB pieces, each when the client took the last: a client that stops reading
        // leaves most of the 10 MB unsent.
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(BIG.length) });
        let sent = 0;
        while (sent < BIG.length && !response.destroyed) {
          const piece = BIG.subarray(sent, sent + 65_536);
          sent += piece.length;
          if (!response.write(piece)) {
            await new Promise((resolve) => {
              response.once('drain', resolve);
              response.once('close', resolve);
            });
          }
        }
        if (sent < BIG.length || response.destroyed) state.cutShort += 1;
        else response.end();
        return;
      }
    }
    state.delivered.push(payload);
    response.writeHead(200).end('ok');
  }

  /** A DNS-over-HTTPS JSON resolver for the names of `NAMES`; `down.test` makes it fail. */
  function resolve(request: IncomingMessage, response: ServerResponse) {
    const query = new URL(request.url ?? '', 'http://resolver').searchParams;
    const name = query.get('name') ?? '';
    const type = query.get('type') === 'AAAA' ? 28 : 1;
    if (name === 'down.test') return void response.writeHead(502).end();
    const records = NAMES[name] ?? answerOf(name);
    const body = records
      ? { Status: 0, Answer: records.filter((r) => r.type === type).map((r) => ({ name, ...r, TTL: 60 })) }
      : { Status: 3 };
    response.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
  }

  const server = createServer((request, response) => {
    const [, route = '', key = ''] = (request.url ?? '').split('/');
    const state = stateOf(key);
    const handle = async () => {
      if (route === 'secret') state.secret = await bodyOf(request);
      else if (route === 'mode') state.mode = await bodyOf(request);
      else if (route === 'log') {
        const { secret: _, mode: __, ...log } = state;
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(log));
      } else if (route.startsWith('dns-query')) return resolve(request, response);
      else if (route === 'r') return receive(state, key, request, response);
      response.writeHead(204).end();
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('webhookReceiver', `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
