/**
 * The commands' `--app` (docs/routes.md#apps): `npm run apps` writes the registry and refuses one that
 * would be invalid, with the path (exit 2, nothing written); `config:push --app` writes the app's own
 * key; `link --app` mints links under the app's prefix and asks the app's API.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appLines, withApp } from '../../scripts/apps.ts';
import { adminTarget } from '../../scripts/lib/admin-api.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-apps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { ...TOOL_ENV, LANDER_URL: '' } });
}

function kvGet(store: string, key: string) {
  return spawnSync(
    'node_modules/.bin/wrangler',
    ['kv', 'key', 'get', key, '--binding', 'KV', '--local', '--persist-to', store, '--text'],
    {
      encoding: 'utf8',
      env: TOOL_ENV,
    },
  ).stdout;
}

describe('the registry a command writes', () => {
  it('adds an app, and changes one already there', () => {
    const one = withApp(null, { id: 'notes', name: 'Notes', hosts: [] });
    expect(one).toEqual({ ok: true, registry: { apps: [{ id: 'notes', name: 'Notes', hosts: [] }] } });
    if (!one.ok) throw new Error('refused');
    const changed = withApp(one.registry, { id: 'notes', name: 'Notes 2', hosts: [] });
    expect(changed).toEqual({ ok: true, registry: { apps: [{ id: 'notes', name: 'Notes 2', hosts: [] }] } });
  });

  it('refuses hosts for an app while the default app lists none: every other host would be not found', () => {
    const result = withApp(null, { id: 'notes', name: 'Notes', hosts: ['go.notes.test'] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]?.message).toContain('"default" lists none');
  });

  it('lists the one app when there is no registry', () => {
    expect(appLines(null)).toEqual(['default  (no registry: the one app, on every host)']);
  });
});

describe('npm run apps', () => {
  it('refuses a bad id with its path, exit 2, and writes nothing', () => {
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = run('scripts/apps.ts', 'add', 'Notes!', '--name', 'Notes', '--local', '--persist-to', store);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('$.apps[0].id: must be a lowercase letter');
    expect(result.stderr).toContain('nothing was written');
    expect(kvGet(store, 'apps')).not.toContain('Notes');
  }, 60_000);

  it('writes the registry to the local KV, and lists it', () => {
    const store = mkdtempSync(join(dir, 'kv-'));
    expect(run('scripts/apps.ts', 'add', 'notes', '--name', 'Notes', '--local', '--persist-to', store).status).toBe(0);
    expect(JSON.parse(kvGet(store, 'apps'))).toEqual({ apps: [{ id: 'notes', name: 'Notes', hosts: [] }] });
    const list = run('scripts/apps.ts', 'list', '--local', '--persist-to', store);
    expect(list.stdout).toContain('notes  Notes  (/@notes/ only)');
  }, 90_000);
});

describe('config:push --app', () => {
  it("writes the app's document under config:<app>, leaving config as it was", () => {
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = run(
      'scripts/config-push.ts',
      'worker/config/demo.json',
      '--app',
      'notes',
      '--local',
      '--persist-to',
      store,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('under "config:notes"');
    expect(JSON.parse(kvGet(store, 'config:notes')).revision).toBe('demo-2026-11-18');
    expect(readdirSync(store).length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses an --app that is no app id, exit 2', () => {
    const result = run('scripts/config-push.ts', 'worker/config/demo.json', '--app', 'No', '--local');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--app: "No" is no app id');
  });
});

describe('link --app', () => {
  it("mints a campaign link on the app's prefix", () => {
    const result = run(
      'scripts/link.ts',
      '--channel',
      'spring',
      '--inviter',
      'ada',
      '--app',
      'notes',
      '--base',
      'https://lander.test',
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^https:\/\/lander\.test\/@notes\/landing\?d=/);
  });

  it("asks the app's links API for a short link", async () => {
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ shortUrl: 's', url: 'u', qr: 'q' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { execFile } = await import('node:child_process');
    await new Promise((resolve) =>
      execFile(
        process.execPath,
        ['scripts/link.ts', '--short', '--channel', 'c', '--inviter', 'i', '--app', 'notes', '--base', base],
        { env: TOOL_ENV },
        resolve,
      ),
    );
    server.close();
    expect(seen).toEqual(['/@notes/api/links']);
  });

  it('names the app of the target, and refuses an id that is none', () => {
    expect(adminTarget({ base: 'https://lander.test', app: 'notes' }, {})).toMatchObject({
      ok: true,
      target: { base: 'https://lander.test/@notes' },
    });
    expect(adminTarget({ base: 'https://lander.test', app: 'default' }, {})).toMatchObject({
      target: { base: 'https://lander.test' },
    });
    expect(adminTarget({ app: '../x' }, {})).toMatchObject({ ok: false });
  });
});
