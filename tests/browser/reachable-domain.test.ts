/**
 * Reachable download domain (docs/config.md) against real HTTPS servers on this machine: the browser
 * probes the configured domains in order and the APK link follows the first that answers.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoWith } from '../fixtures/config.ts';
import { restoreSeed, storeConfig } from '../fixtures/local-kv.ts';
import { DEVICES, hydrated, launch, marked } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const DOWNLOAD_ORIGIN = 'https://dl-dev.lander.example';
const APK = '/android/pebble-notes-2.4.0.apk';
const TLS = {
  key: readFileSync(new URL('./fixtures/test-server.key', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/test-server.crt', import.meta.url)),
};

type Mode = 'answer' | 'down' | 'hang';

/** A download domain whose behaviour a test switches: answers, drops every connection, or never replies. */
interface Domain {
  origin: string;
  mode: Mode;
  /** Paths of requests answered, and connections seen, since the last reset. */
  paths: string[];
  connections: number;
  server: Server;
}

async function domain(): Promise<Domain> {
  const server = createServer(TLS);
  const d: Domain = { origin: '', mode: 'answer', paths: [], connections: 0, server };
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    d.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (d.mode === 'down') socket.destroy();
  });
  server.on('request', (req, res) => {
    if (d.mode === 'hang') return;
    d.paths.push(req.url ?? '');
    res.writeHead(204).end();
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  d.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return d;
}

let browser: Browser;
let first: Domain;
let second: Domain;

beforeAll(async () => {
  [first, second] = [await domain(), await domain()];
  storeConfig(persistTo, demoWith({ domains: [first.origin, second.origin] }));
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser.close();
  restoreSeed(persistTo);
  for (const d of [first, second]) {
    d.server.closeAllConnections();
    d.server.close();
  }
}, 60_000);

function set(a: Mode, b: Mode): void {
  first.mode = a;
  second.mode = b;
  for (const d of [first, second]) {
    d.paths = [];
    d.connections = 0;
  }
}

async function openAndroid(path: string): Promise<{ page: Page; serverHtml: string; close: () => Promise<void> }> {
  const context = await browser.newContext({ ...DEVICES.android, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const res = await page.goto(`${baseURL}${path}`);
  const serverHtml = (await res?.text()) ?? '';
  await hydrated(page);
  return { page, serverHtml, close: () => context.close() };
}

/** `/test`'s reachable-domain row once probing has finished. */
async function reachableOnTestPage(): Promise<string> {
  const { page, close } = await openAndroid('/test');
  const cell = page.locator('td[data-row="downloadReachable"]');
  await page.waitForFunction(
    () => !document.querySelector('td[data-row="downloadReachable"]')?.textContent?.includes('probing'),
    null,
    { timeout: 10_000 },
  );
  const text = (await cell.textContent()) ?? '';
  await close();
  return text;
}

describe('the reachable download domain', () => {
  it('skips a first domain that refuses connections and takes the second; the APK link follows', async () => {
    set('down', 'answer');
    const { page, serverHtml, close } = await openAndroid('/');
    // The server cannot know what the visitor's network reaches: it links the download origin.
    expect(serverHtml).toContain(`href="${DOWNLOAD_ORIGIN}${APK}"`);
    await page.waitForFunction(
      (href) => document.querySelector('.button-primary')?.getAttribute('href') === href,
      `${second.origin}${APK}`,
      { timeout: 10_000 },
    );
    expect(first.connections).toBeGreaterThan(0);
    expect(second.paths).toEqual(['/favicon.ico']);
    await close();
    expect(await reachableOnTestPage()).toBe(second.origin);
  });

  it('moves on from a first domain that never answers, after its timeout', async () => {
    set('hang', 'answer');
    const { page, close } = await openAndroid('/');
    const started = Date.now();
    await page.waitForFunction(
      (href) => document.querySelector('.button-primary')?.getAttribute('href') === href,
      `${second.origin}${APK}`,
      { timeout: 10_000 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(first.connections).toBeGreaterThan(0);
    await close();
  });

  it('takes the first domain when it answers', async () => {
    set('answer', 'answer');
    expect(await reachableOnTestPage()).toBe(first.origin);
    expect(second.paths).toEqual([]);
  });

  it('falls back to downloadOrigin when no domain answers, and the APK link stays there', async () => {
    set('down', 'down');
    expect(await reachableOnTestPage()).toBe(DOWNLOAD_ORIGIN);
    const { page, close } = await openAndroid('/');
    await marked(page, 'downloadProbed', 'true', 10_000);
    expect(second.connections).toBeGreaterThan(0);
    expect(await page.getAttribute('.button-primary', 'href')).toBe(`${DOWNLOAD_ORIGIN}${APK}`);
    await close();
  });
});
