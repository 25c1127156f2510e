import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../scripts/config-push.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-config-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BAD = { revision: 'bad', appData: [{ plat: 9 }], commonConfig: { tagline: 'T', description: 'D' } };

function push(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/config-push.ts', ...args], { encoding: 'utf8', env: TOOL_ENV });
}

describe('config:push', () => {
  it('finds the problems of a bad file with their JSON paths', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(BAD));
    const result = checkConfigFile(file);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toContain('$.appData[0].plat');
  });

  it('reports an unreadable file as a problem, not a crash', () => {
    const result = checkConfigFile(join(dir, 'absent.json'));
    expect(!result.ok && result.problems[0]?.message).toMatch(/cannot read/);
  });

  it('exits non-zero on a bad file, prints the path and writes nothing', () => {
    const file = join(dir, 'bad2.json');
    writeFileSync(file, JSON.stringify(BAD));
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = push(file, '--local', '--persist-to', store);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('$.appData[0].plat');
    expect(result.stderr).toContain('nothing was written');
    expect(readdirSync(store)).toEqual([]);
  });

  it('refuses a production push of a document without the operator’s own store ids and download origin, naming each', () => {
    const result = push('worker/config/demo.json', '--env', 'production');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('not ready for production; nothing was written');
    expect(result.stderr).toContain('$.appData[1].app_store_id: is the demo’s (6740858208)');
    expect(result.stderr).toContain('$.appData[0].package: is the demo’s (com.pebble.notes)');
    expect(result.stderr).toContain(
      '$.domains: no download origin of the operator’s: DOWNLOAD_ORIGIN is https://dl.lander.example',
    );
  }, 60_000);

  it('writes a valid file to the local KV, where wrangler reads it back', () => {
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = push('worker/config/demo.json', '--local', '--persist-to', store);
    expect(result.status).toBe(0);
    const read = spawnSync(
      'node_modules/.bin/wrangler',
      ['kv', 'key', 'get', 'config', '--binding', 'KV', '--local', '--persist-to', store],
      { encoding: 'utf8', env: TOOL_ENV },
    );
    expect(JSON.parse(read.stdout).revision).toBe('demo-2026-11-18');
  }, 60_000);
});

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A worker's PUT /api/config as the CLI meets it: answering `status` and `body`, remembering each call. */
async function stubWorker(status: number, body: unknown): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body: text });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const run = promisify(execFile);
/** config:push with `vars` over an environment without tokens; never throws on a non-zero exit. */
function pushAsync(args: string[], vars: Record<string, string> = {}) {
  const env = { ...TOOL_ENV, ADMIN_TOKEN: '', LANDER_ADMIN_TOKEN: '', ...vars };
  return run(process.execPath, ['scripts/config-push.ts', ...args], { encoding: 'utf8', env }).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('config:push --url', () => {
  it('sends the checked document to the app’s PUT /api/config with --token, and says the change is audited', async () => {
    const { base, seen } = await stubWorker(200, { app: 'sketch', changed: true });
    const done = await pushAsync([
      'worker/config/demo.json',
      '--url',
      base,
      '--app',
      'sketch',
      '--token',
      'lk_sketch_x',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/@sketch/api/config', authorization: 'Bearer lk_sketch_x' });
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({ revision: 'demo-2026-11-18' });
    expect(done.stdout).toContain('the audit log has the change');
  });

  it('takes the token from LANDER_ADMIN_TOKEN without --token', async () => {
    const { base, seen } = await stubWorker(200, { changed: false });
    const done = await pushAsync(['worker/config/demo.json', '--url', base], { LANDER_ADMIN_TOKEN: 'from-env' });
    expect(done.code, done.stderr).toBe(0);
    expect(seen[0]).toMatchObject({ url: '/api/config', authorization: 'Bearer from-env' });
    expect(done.stdout).toContain('nothing changed');
  });

  it('checks the file before any call: a bad one is refused with its paths and the worker is never asked', async () => {
    const { base, seen } = await stubWorker(200, { changed: true });
    const file = join(dir, 'bad-url.json');
    writeFileSync(file, JSON.stringify(BAD));
    const done = await pushAsync([file, '--url', base, '--token', 't']);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('$.appData[0].plat');
    expect(seen).toEqual([]);
  });

  it('prints the worker’s refusal with each problem’s path and exits 1', async () => {
    const problems = [{ path: '$.appData[1].app_store_id', message: 'is the demo’s (6740858208)' }];
    const { base } = await stubWorker(400, { error: 'not ready for production; nothing was written', problems });
    const done = await pushAsync(['worker/config/demo.json', '--url', base, '--token', 't']);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('the worker refused it: not ready for production; nothing was written');
    expect(done.stderr).toContain('$.appData[1].app_store_id: is the demo’s (6740858208)');
  });

  it('refuses --url with --local or --env, and --token without --url', async () => {
    const both = await pushAsync(['worker/config/demo.json', '--url', 'http://127.0.0.1:1', '--local']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      '--url sends the document to that worker: it excludes --local, --env and --persist-to',
    );
    const alone = await pushAsync(['worker/config/demo.json', '--local', '--token', 't']);
    expect(alone.stderr).toContain('--token goes with --url');
  });
});
