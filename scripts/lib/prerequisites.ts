/**
 * The system programs and files the tests need, each with the Debian package that brings it: the one
 * list `npm test` and `.ci/run` both check (scripts/prerequisites.ts). How each is looked up goes
 * through a `Lookup`, so a test can point it at a directory of its own instead of this machine.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where prerequisites are looked for: PATH, the file system (under `root`) and the environment. */
export interface Lookup {
  /** Directories searched for commands, in order (PATH). */
  path: string[];
  /** Prefix of every absolute file path checked: `/` on a real machine, a scratch directory in a test. */
  root: string;
  /** The variables that override where a program is (CHROMIUM_PATH, …). */
  env: Record<string, string | undefined>;
  /** The user id: 0 is root. */
  uid: number;
}

/** This machine, as the running process sees it. */
export function systemLookup(env: Record<string, string | undefined> = process.env): Lookup {
  return { path: (env.PATH ?? '').split(delimiter).filter(Boolean), root: '/', env, uid: process.getuid?.() ?? -1 };
}

/** The executable file `command` names on the lookup's PATH, if any. */
export function which(look: Lookup, command: string): string | undefined {
  for (const dir of look.path) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

const file = (look: Lookup, path: string): boolean => existsSync(join(look.root, path));

/** Runs a command found on the lookup's PATH; its stdout, or undefined when it is absent or fails. */
function output(look: Lookup, command: string, args: string[]): string | undefined {
  const found = which(look, command);
  if (!found) return undefined;
  const result = spawnSync(found, args, { encoding: 'utf8', env: { ...look.env, PATH: look.path.join(delimiter) } });
  return result.status === 0 ? result.stdout : undefined;
}

/** MiniBrowser of Debian's WebKitGTK, where tests/browser/webkit.ts looks for it. */
function miniBrowser(look: Lookup): boolean {
  if (look.env.MINIBROWSER_PATH) return file(look, look.env.MINIBROWSER_PATH);
  const lib = join(look.root, 'usr/lib');
  if (!existsSync(lib)) return false;
  return readdirSync(lib)
    .filter((arch) => arch.includes('linux-gnu'))
    .some((arch) =>
      readdirSync(join(lib, arch))
        .filter((name) => name.startsWith('webkit2gtk-4.'))
        .some((name) => existsSync(join(lib, arch, name, 'MiniBrowser'))),
    );
}

/** The test projects of vitest.config.ts; each asks only for what its own tests run. */
export const TEST_PROJECTS = ['unit', 'worker', 'browser', 'tools'] as const;
export type TestProject = (typeof TEST_PROJECTS)[number];

export interface Prerequisite {
  /** What is looked for, as a message names it. */
  name: string;
  /** The test projects that run it (`browser` stands for both browser projects). */
  projects: readonly TestProject[];
  /** The Debian package that brings it. */
  pkg: string;
  /** Which tests need it. */
  neededBy: string;
  /** Whether this lookup finds it. */
  present(look: Lookup): boolean;
}

const command = (name: string, pkg: string, neededBy: string, projects: readonly TestProject[]): Prerequisite => ({
  name,
  projects,
  pkg,
  neededBy,
  present: (look) => which(look, name) !== undefined,
});

const jar = (name: string, pkg: string): Prerequisite => ({
  name: `/usr/share/java/${name}`,
  // The Android SDK's JUnit suite: tests/unit/sdk-android.test.ts and the browser's stamped-APK match.
  projects: ['unit', 'browser'],
  pkg,
  neededBy: 'the Android SDK tests',
  present: (look) => file(look, `/usr/share/java/${name}`),
});

/** Every system prerequisite of the tests, in the order they are reported. */
export const PREREQUISITES: readonly Prerequisite[] = [
  {
    name: 'Chromium',
    projects: ['browser', 'tools'],
    pkg: 'chromium',
    neededBy: 'the browser tests and Lighthouse (CHROMIUM_PATH overrides /usr/bin/chromium)',
    present: (look) => file(look, look.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  },
  {
    name: 'WebKitWebDriver',
    projects: ['browser'],
    pkg: 'webkit2gtk-driver',
    neededBy: 'the WebKit browser tests',
    present: (look) => file(look, look.env.WEBKIT_WEBDRIVER_PATH ?? '/usr/bin/WebKitWebDriver'),
  },
  {
    name: 'MiniBrowser',
    projects: ['browser'],
    pkg: 'webkit2gtk-driver',
    neededBy: 'the WebKit browser tests',
    present: miniBrowser,
  },
  {
    name: 'Xvfb',
    projects: ['browser'],
    pkg: 'xvfb',
    neededBy: 'the WebKit browser tests',
    present: (look) => file(look, '/usr/bin/Xvfb'),
  },
  {
    name: 'a CJK font (fc-list :lang=zh)',
    projects: ['browser'],
    pkg: 'fonts-noto-cjk',
    neededBy: "the screenshots' Chinese text",
    present: (look) => (output(look, 'fc-list', [':lang=zh']) ?? '').trim() !== '',
  },
  command('fc-list', 'fontconfig', 'finding the CJK font', ['browser']),
  command('apksigner', 'apksigner', 'the stamped-APK tests', ['unit', 'worker', 'browser']),
  command('openssl', 'openssl', 'the stamped-APK tests (signing keys)', ['unit', 'worker', 'browser', 'tools']),
  command('aapt', 'aapt', 'the real-APK fixtures', ['unit', 'worker', 'browser']),
  {
    name: "the Android framework's resources (framework-res.apk)",
    projects: ['unit', 'worker', 'browser'],
    pkg: 'android-framework-res',
    neededBy: 'the real-APK fixtures (aapt links against them)',
    present: (look) => file(look, '/usr/share/android-framework-res/framework-res.apk'),
  },
  command('wrk', 'wrk', "the bench's tools tests", ['tools']),
  command('javac', 'openjdk-17-jdk-headless', 'the Android SDK tests', ['unit', 'browser']),
  command('java', 'openjdk-17-jdk-headless', 'the Android SDK tests', ['unit', 'browser']),
  jar('junit4.jar', 'junit4'),
  jar('hamcrest-core.jar', 'libhamcrest-java'),
  jar('com.android.json.jar', 'libandroid-json-java'),
];

/** The prerequisites of `projects` (all of them when none is named), in table order. */
export function prerequisitesOf(projects: readonly TestProject[]): readonly Prerequisite[] {
  if (projects.length === 0) return PREREQUISITES;
  return PREREQUISITES.filter((item) => item.projects.some((project) => projects.includes(project)));
}

/** What is missing, the packages that bring it, and how to install them here. */
export interface Plan {
  missing: Prerequisite[];
  /** The Debian packages of the missing prerequisites, each once, in table order. */
  packages: string[];
  /** The one command that installs them (empty when nothing is missing). */
  command: string;
  /** Whether this process may run it itself: apt-get present, and root or sudo without a password. */
  canInstall: boolean;
  /** The command's steps as argument lists, as the process runs them. */
  steps: string[][];
}

/** Whether `sudo` runs without asking for a password. */
function passwordlessSudo(look: Lookup): boolean {
  const sudo = which(look, 'sudo');
  return sudo !== undefined && spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Checks every prerequisite against `look` and composes the apt command for what is missing. */
export function plan(look: Lookup, table: readonly Prerequisite[] = PREREQUISITES): Plan {
  const missing = table.filter((item) => !item.present(look));
  const packages = [...new Set(missing.map((item) => item.pkg))];
  const root = look.uid === 0;
  const apt = which(look, 'apt-get') !== undefined;
  // sudo resets the environment, so under sudo the non-interactive front end is set by `env`.
  const install = ['apt-get', 'install', '-y', ...packages];
  const steps = root
    ? [['apt-get', 'update'], install]
    : [
        ['sudo', 'apt-get', 'update'],
        ['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive', ...install],
      ];
  const prefix = root ? '' : 'sudo ';
  const shown = `${prefix}apt-get update && ${prefix}apt-get install -y ${packages.join(' ')}`;
  return {
    missing,
    packages,
    command: packages.length > 0 ? shown : '',
    canInstall: packages.length > 0 && apt && (root || passwordlessSudo(look)),
    steps: packages.length > 0 ? steps : [],
  };
}
