/**
 * The test command's prerequisite step (scripts/prerequisites.ts): real lookups against a scratch
 * PATH and file-system root, so a missing program is found and named, the apt command is composed
 * for root and for sudo, and a process that may not install stops with that command.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Lookup, PREREQUISITES, plan, prerequisitesOf, which } from '../../scripts/lib/prerequisites.ts';
import { ensurePrerequisites } from '../../scripts/prerequisites.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A bare machine: an empty root and an empty PATH directory, filled by `program` and `file`. */
function machine(uid = 0): Lookup & { program(name: string, script?: string): void; file(path: string): void } {
  const root = mkdtempSync(join(tmpdir(), 'lander-prereq-'));
  dirs.push(root);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  return {
    path: [bin],
    root,
    env: {},
    uid,
    program(name, script = 'exit 0') {
      writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
      chmodSync(join(bin, name), 0o755);
    },
    file(path) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), '');
    },
  };
}

/** Makes every prerequisite present on `look`. */
function complete(look: ReturnType<typeof machine>): void {
  for (const name of ['apksigner', 'openssl', 'aapt', 'wrk', 'javac', 'java']) look.program(name);
  look.program('fc-list', 'echo "/usr/share/fonts/NotoSansCJK.ttc: Noto Sans CJK SC:style=Regular"');
  for (const path of [
    '/usr/bin/chromium',
    '/usr/bin/WebKitWebDriver',
    '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/bin/Xvfb',
    '/usr/share/java/junit4.jar',
    '/usr/share/java/hamcrest-core.jar',
    '/usr/share/java/com.android.json.jar',
    '/usr/share/android-framework-res/framework-res.apk',
  ]) {
    look.file(path);
  }
}

const names = (look: Lookup): string[] => plan(look).missing.map((item) => item.name);

describe('prerequisites', () => {
  it('finds everything on a complete machine, and nothing on a bare one', () => {
    const look = machine();
    expect(names(look)).toEqual(PREREQUISITES.map((item) => item.name));
    complete(look);
    expect(plan(look)).toMatchObject({ missing: [], packages: [], command: '', canInstall: false });
  });

  it('names a missing program, and only it', () => {
    const look = machine();
    complete(look);
    rmSync(join(look.path[0] ?? '', 'wrk'));
    expect(names(look)).toEqual(['wrk']);
    expect(plan(look).packages).toEqual(['wrk']);
  });

  it('needs an executable file on PATH, not any file of that name', () => {
    const look = machine();
    writeFileSync(join(look.path[0] ?? '', 'openssl'), '');
    expect(which(look, 'openssl')).toBeUndefined();
    look.program('openssl');
    expect(which(look, 'openssl')).toBe(join(look.path[0] ?? '', 'openssl'));
  });

  it('counts a CJK font only when fc-list lists one for Chinese', () => {
    const look = machine();
    complete(look);
    look.program('fc-list', 'exit 0');
    expect(names(look)).toEqual(['a CJK font (fc-list :lang=zh)']);
    expect(plan(look).packages).toEqual(['fonts-noto-cjk']);
  });

  it('follows CHROMIUM_PATH and MINIBROWSER_PATH as the browser tests do', () => {
    const look = machine();
    complete(look);
    look.env = { CHROMIUM_PATH: '/opt/chromium/chrome', MINIBROWSER_PATH: '/opt/MiniBrowser' };
    expect(names(look)).toEqual(['Chromium', 'MiniBrowser']);
    look.file('/opt/chromium/chrome');
    look.file('/opt/MiniBrowser');
    expect(names(look)).toEqual([]);
  });

  it('composes one apt command with each package once, in table order', () => {
    const look = machine();
    complete(look);
    rmSync(join(look.root, 'usr/bin/WebKitWebDriver'));
    rmSync(join(look.root, 'usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'));
    rmSync(join(look.path[0] ?? '', 'java'));
    rmSync(join(look.path[0] ?? '', 'javac'));
    look.program('apt-get');
    const root = plan(look);
    expect(root.packages).toEqual(['webkit2gtk-driver', 'openjdk-17-jdk-headless']);
    expect(root.command).toBe('apt-get update && apt-get install -y webkit2gtk-driver openjdk-17-jdk-headless');
    expect(root.canInstall).toBe(true);
    expect(root.steps).toEqual([
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', 'webkit2gtk-driver', 'openjdk-17-jdk-headless'],
    ]);
    const user = plan({ ...look, uid: 1000 });
    expect(user.command).toBe(
      'sudo apt-get update && sudo apt-get install -y webkit2gtk-driver openjdk-17-jdk-headless',
    );
    expect(user.steps[1]?.slice(0, 3)).toEqual(['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive']);
  });

  it('installs as a user only with apt-get and sudo that asks no password', () => {
    const look = machine(1000);
    look.program('apt-get');
    expect(plan(look).canInstall).toBe(false);
    look.program('sudo', 'exit 1');
    expect(plan(look).canInstall).toBe(false);
    look.program('sudo', 'exit 0');
    expect(plan(look).canInstall).toBe(true);
    const noApt = machine(0);
    expect(plan(noApt).canInstall).toBe(false);
  });
});

describe('the step', () => {
  it('stops at once with the one command when it may not install, and runs nothing', () => {
    const look = machine(1000);
    complete(look);
    rmSync(join(look.root, 'usr/bin/Xvfb'));
    look.program('apt-get', `echo "$@" >> ${join(look.root, 'apt.log')}`);
    const lines: string[] = [];
    expect(ensurePrerequisites(look, false, (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toContain('Xvfb (Debian package xvfb)');
    expect(lines.at(-1)).toBe('  sudo apt-get update && sudo apt-get install -y xvfb');
    expect(() => readFileSync(join(look.root, 'apt.log'))).toThrow();
  });

  it('as root runs apt-get update, then install, prints what it installs, and checks again', () => {
    const look = machine(0);
    complete(look);
    rmSync(join(look.path[0] ?? '', 'aapt'));
    const log = join(look.root, 'apt.log');
    // This apt-get records its calls and "installs" aapt, as Debian's would.
    look.program(
      'apt-get',
      `echo "$DEBIAN_FRONTEND $@" >> ${log}\nif [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${look.path[0]}/aapt; /bin/chmod +x ${look.path[0]}/aapt; fi`,
    );
    const lines: string[] = [];
    expect(ensurePrerequisites(look, false, (line) => lines.push(line))).toBe(0);
    expect(lines).toContain('Installing with apt-get: aapt');
    expect(readFileSync(log, 'utf8')).toBe('noninteractive update\nnoninteractive install -y aapt\n');
    expect(lines.at(-1)).toBe(`Prerequisites: all ${PREREQUISITES.length} present.`);
  });

  it('fails, naming what is still missing, when apt-get left it out', () => {
    const look = machine(0);
    complete(look);
    rmSync(join(look.path[0] ?? '', 'wrk'));
    look.program('apt-get');
    const lines: string[] = [];
    expect(ensurePrerequisites(look, false, (line) => lines.push(line))).toBe(1);
    expect(lines).toContain('Still missing after apt-get: wrk. Run:');
  });

  it('--check reports from a bare root and PATH and installs nothing, as a fresh machine would see it', () => {
    const look = machine();
    const result = spawnSync(process.execPath, ['scripts/prerequisites.ts', '--check', '--root', look.root], {
      encoding: 'utf8',
      env: { ...process.env, PATH: look.path.join(delimiter) },
    });
    expect(result.status).toBe(1);
    for (const item of PREREQUISITES) expect(result.stdout).toContain(`${item.name} (Debian package ${item.pkg})`);
    expect(result.stdout).toContain(
      'apt-get install -y chromium webkit2gtk-driver xvfb fonts-noto-cjk fontconfig apksigner openssl aapt android-framework-res wrk openjdk-17-jdk-headless junit4 libhamcrest-java libandroid-json-java',
    );
  });

  it('asks each test project only for what its tests run: the unit tests need no browser, display, font or load tool', () => {
    const unit = prerequisitesOf(['unit']).map((item) => item.name);
    for (const name of ['Chromium', 'WebKitWebDriver', 'MiniBrowser', 'Xvfb', 'a CJK font (fc-list :lang=zh)', 'wrk'])
      expect(unit).not.toContain(name);
    expect(unit).toContain('apksigner');
    expect(prerequisitesOf(['tools']).map((item) => item.name)).toContain('wrk');
    // Every prerequisite is some project's, and all projects together are the whole table.
    expect(prerequisitesOf(['unit', 'worker', 'browser', 'tools'])).toEqual(PREREQUISITES);
    expect(prerequisitesOf([])).toEqual(PREREQUISITES);
  });

  it("--project unit on a bare machine names only the unit tests' programs; an unknown project exits 2", () => {
    const look = machine();
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/prerequisites.ts', '--check', '--root', look.root, ...args], {
        encoding: 'utf8',
        env: { ...process.env, PATH: look.path.join(delimiter) },
      });
    const unit = run('--project', 'unit');
    expect(unit.status).toBe(1);
    expect(unit.stdout).toContain('apksigner (Debian package apksigner)');
    expect(unit.stdout).not.toContain('Chromium');
    expect(unit.stdout).not.toContain('wrk');
    const unknown = run('--project', 'nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--project: "nope" is not a test project');
  });
});
