/**
 * `npm run observatory`: grades the security headers with the MDN HTTP Observatory, offline. Builds
 * the client, makes a throwaway self-signed certificate for 127.0.0.1 (openssl, temporary folder),
 * serves the worker with `wrangler dev --local-protocol https` on a free loopback port, scans each
 * page with the scanner's own `scan()` in a process that trusts that certificate, prints the grade,
 * the score and every failing test, and exits non-zero unless every page is A+ (docs/security.md).
 * Flags: --env NAME (wrangler.toml environment, default production; '' for the top level),
 * --no-build (reuse dist/client), --path P (a page to scan; repeatable; default / and /landing).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ObservatoryResult } from '@mdn/mdn-http-observatory';
import { kvPut } from '../scripts/lib/kv.ts';
import { ROOT, runTool, TOOL_ENV } from '../scripts/lib/run.ts';
import { localSeed } from '../scripts/seed-local.ts';
import { makeCertificate } from './observatory/certificate.ts';
import { formatReport, meetsGrade, REQUIRED_GRADE } from './observatory/report.ts';
import { runScan } from './observatory/run-scan.ts';

const HOST = '127.0.0.1';

const { values } = parseArgs({
  options: {
    env: { type: 'string', default: 'production' },
    'no-build': { type: 'boolean', default: false },
    path: { type: 'string', multiple: true },
  },
});
const paths = values.path?.length ? values.path : ['/', '/landing'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** GET over HTTPS trusting only `ca`; resolves with the status, or undefined when nothing answers. */
function httpsStatus(url: string, ca: Buffer): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { ca, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitUntilUp(origin: string, ca: Buffer, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited (${server.exitCode}):\n${output()}`);
    if ((await httpsStatus(`${origin}/api/health`, ca)) === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer at ${origin} within 90 s:\n${output()}`);
}

if (!values['no-build']) runTool('vite', ['build', '--logLevel', 'warn']);

const certificate = makeCertificate(HOST);
const persistTo = mkdtempSync(join(tmpdir(), 'lander-observatory-'));
const port = await freePort();
const origin = `https://${HOST}:${port}`;
const env = values.env || undefined;
kvPut(localSeed(), { local: true, env, persistTo });

const args = ['dev', '--local', '--ip', HOST, '--port', String(port), '--persist-to', persistTo];
args.push('--local-protocol', 'https', '--https-key-path', certificate.keyPath);
args.push('--https-cert-path', certificate.certPath, '--show-interactive-dev-session=false');
if (env) args.push('--env', env);
// Its own process group, so stopping it stops workerd too.
const server = spawn(join(ROOT, 'node_modules/.bin/wrangler'), args, {
  cwd: ROOT,
  env: TOOL_ENV,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
server.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

function stop(): void {
  if (server.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  certificate.remove();
  rmSync(persistTo, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop();
    process.exit(130);
  });
}

try {
  await waitUntilUp(origin, readFileSync(certificate.certPath), server, () => output);
  console.log(`MDN HTTP Observatory (offline) against wrangler dev at ${origin} (env ${env ?? 'top level'})`);
  const results: ObservatoryResult[] = [];
  for (const path of paths) {
    const result = await runScan(`${HOST}:${port}${path === '/' ? '' : path}`, certificate.certPath);
    results.push(result);
    for (const line of formatReport(path, result)) console.log(line);
  }
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  writeFileSync(join(ROOT, 'dist/observatory.json'), JSON.stringify(results, null, 2));
  if (meetsGrade(results)) {
    console.log(`Every page is ${REQUIRED_GRADE}. Full results: dist/observatory.json`);
  } else {
    console.error(`Not every page is ${REQUIRED_GRADE}. Full results: dist/observatory.json`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  stop();
}
