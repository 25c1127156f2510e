/**
 * Starts the real worker (`npm start`'s script, without rebuilding) on a free port with its own
 * local KV state, for the browser tests; stops it afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The started worker's local KV directory (`--persist-to`), for tests that change its data. */
    kvPersistTo: string;
  }
}

/** A TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilUp(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The worker did not start at ${url}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) throw new Error(`Browser tests need Chromium at ${CHROMIUM} (npm run prerequisites)`);
  // Without a CJK font the screenshots' Chinese text is drawn as boxes and every check still passes.
  if (!spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).stdout?.trim()) {
    throw new Error('Browser tests need a CJK font for the Chinese screenshots (npm run prerequisites)');
  }
  const port = await freePort();
  const persistTo = mkdtempSync(join(tmpdir(), 'lander-browser-'));
  const child = spawn(process.execPath, ['scripts/start.ts', '--no-build', '--persist-to', persistTo], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, Date.now() + 90_000);
  } catch (error) {
    console.error(output);
    throw error;
  }
  project.provide('baseURL', url);
  project.provide('kvPersistTo', persistTo);
  return async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    rmSync(persistTo, { recursive: true, force: true });
  };
}
