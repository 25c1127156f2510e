/**
 * `PORT=N npm run bench:serve` (tools/bench-serve.ts): the bench's server on the port asked for, until
 * stopped. Run on a bundle built into a temporary directory, so dist/ is left alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureTool, ROOT } from '../../scripts/lib/run.ts';

/** A loopback port nothing listens on now: the OS picks it for a listener closed at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves with the first stdout line that holds `text`; rejects if the process exits first. */
function lineWith(child: ChildProcess, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes(text));
      if (line) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`bench:serve exited (${code}) before serving:\n${out}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'lander-bench-serve-'));
let workerDir = '';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/client/.vite/manifest.json'))) captureTool('vite', ['build', '--logLevel', 'warn']);
  workerDir = join(dir, 'worker');
  captureTool('wrangler', ['deploy', '--dry-run', '--outdir', workerDir, '--minify', '--env', 'production']);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(port: string): ChildProcess {
  const args = ['tools/bench-serve.ts', '--no-build', '--worker-dir', relative(ROOT, workerDir)];
  args.push('--out-dir', relative(ROOT, join(dir, 'bench')));
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, PORT: port } });
}

describe('npm run bench:serve', () => {
  it('serves the production build on 127.0.0.1:PORT until SIGTERM, which stops workerd', async () => {
    const port = await freePort();
    const child = serve(String(port));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await lineWith(child, `http://127.0.0.1:${port}`);

    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/^<!DOCTYPE html>/i);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('refuses to start without a valid PORT, with a message', async () => {
    const child = serve('http');
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('bench:serve needs PORT');
  });
});
