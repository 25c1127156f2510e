/**
 * The app's and the operator's calls for the worker tests of test devices, explanations and app
 * events: a fake app's requests through the worker, networks no other test uses, campaign tokens, and
 * admin reads.
 */
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { encryptToken } from '../../worker/campaign/token.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../worker/settings.ts';
import { type ClickOptions, issuedClickId, type Phone, type Send, tap } from '../fixtures/fake-app.ts';
import { ORIGIN } from './helpers.ts';

export const APP_HEADERS = { 'user-agent': 'PebbleNotes/2.4 CFNetwork/1490.0.4 Darwin/23.5.0' };

/** POSTs `body` as JSON to the worker. */
export const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

/** `body` to `path` from `address` as the app sends it, answered 200 or 204: the answer's JSON, or null. */
export async function appCall(path: string, body: unknown, address?: string): Promise<Record<string, unknown> | null> {
  const res = await send(path, body, { ...APP_HEADERS, ...(address ? { 'cf-connecting-ip': address } : {}) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.status === 204 ? null : res.json();
}

let networks = 0;
/** A /24 no other test uses (per file: `first` tells files apart); `at(n)` is an address in it. */
export function network(first: number): (n: number) => string {
  networks += 1;
  return (n: number) => `${first}.${Math.floor(networks / 250)}.${networks % 250}.${n}`;
}

/** A signed campaign token of `fields`. */
export const campaign = (fields: Record<string, string>): string =>
  encryptToken(JSON.stringify(fields), DEV_DECODE_KEY);

/** The carrier link a tap on the page writes to the clipboard. */
export const carrierLink = (carrier: string): string => `https://lander.test/i/${carrier}`;

/** A tap on the page from `address`, recorded: its body. */
export async function click(phone: Phone, address: string, options: ClickOptions = {}) {
  const { body, response } = tap(send, phone, address, options);
  expect((await response).status).toBe(204);
  return body;
}

let pages = 0;
/** A click id the worker issued, as a page gets one (`GET /api/a/click-ids`), each from an address of its own. */
export function issueClickId(): Promise<string> {
  pages += 1;
  const address = `100.64.${(pages >> 8) & 255}.${pages & 255}`;
  return issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': address } })),
  );
}

/** A fresh install id. */
export const newInstallId = (): string => `install-${crypto.randomUUID()}`;

/** GET of an admin API path with the development token. */
export function adminGet(path: string, token = DEV_ADMIN_TOKEN): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }));
}

/** `metric → count` of the funnel_daily rows of `channel`, and the value sums. */
export async function counted(channel: string): Promise<Record<string, number>> {
  const { results } = await env.FUNNEL_DB.prepare(
    'SELECT metric, SUM(count) AS count, SUM(value_sum) AS value FROM funnel_daily WHERE channel = ?1 GROUP BY metric',
  )
    .bind(channel)
    .all<{ metric: string; count: number; value: number }>();
  return Object.fromEntries(
    results.flatMap((row) => [[row.metric, row.count], ...(row.value ? [[`${row.metric}:value`, row.value]] : [])]),
  );
}
