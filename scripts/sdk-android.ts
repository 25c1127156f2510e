/**
 * `npm run sdk:android`: compiles the Android SDK (sdk/android) with `javac --release 8` against
 * Android's own org.json (Debian's libandroid-json-java) and the compile-only Android stubs of its
 * tests, runs its JUnit 4 suite (every conformance case of sdk/conformance), and writes
 * `sdk/android/dist/lander-sdk.jar` without the stubs (docs/sdk.md). Flags: `--test CLASS` runs only
 * that test class; `-Dname=value` is passed to the tests (the end-to-end test's worker URL);
 * `--no-test` only builds; `--out DIR` builds in DIR instead of sdk/android/dist.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { cliArgs, helpIfAsked } from './lib/cli-args.ts';
import { ROOT } from './lib/run.ts';

const SDK = join(ROOT, 'sdk/android');
const args = process.argv.slice(2);
/** Where the classes and the jar go; the end-to-end test builds in its own folder, beside a running build. */
const OUT = args.includes('--out') ? resolve(args[args.indexOf('--out') + 1] ?? '') : join(SDK, 'dist');
export const JAR = join(OUT, 'lander-sdk.jar');

/** Debian's jars: the first path of each that exists. */
const JARS = {
  json: ['/usr/share/java/com.android.json.jar', '/usr/share/java/android-json.jar'],
  junit: ['/usr/share/java/junit4.jar'],
  hamcrest: ['/usr/share/java/hamcrest-core.jar', '/usr/share/java/hamcrest.jar'],
};

function jar(name: keyof typeof JARS): string {
  const found = JARS[name].find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `${JARS[name][0]} is missing: apt-get install openjdk-17-jdk-headless junit4 libhamcrest-java libandroid-json-java`,
    );
  }
  return found;
}

function javaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return javaFiles(path);
    return name.endsWith('.java') ? [path] : [];
  });
}

function run(tool: string, args: string[]): void {
  const result = spawnSync(tool, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) throw new Error(`${tool}: ${result.error.message} (apt-get install openjdk-17-jdk-headless)`);
  if (result.status !== 0) throw new Error(`${tool} failed (${result.status ?? result.signal})`);
}

/** Compiles the stubs, the SDK and its tests; returns the classpath the tests run with. */
export function compile(): string[] {
  rmSync(OUT, { recursive: true, force: true });
  const dirs = { stubs: join(OUT, 'stubs'), classes: join(OUT, 'classes'), tests: join(OUT, 'test-classes') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const javac = (out: string, classpath: string[], sources: string[], lint: string[]) =>
    run('javac', ['--release', '8', ...lint, '-encoding', 'UTF-8', '-d', out, '-cp', classpath.join(':'), ...sources]);
  javac(dirs.stubs, [], javaFiles(join(SDK, 'src/test/stubs')), []);
  javac(dirs.classes, [jar('json'), dirs.stubs], javaFiles(join(SDK, 'src/main/java')), [
    '-Xlint:all,-options',
    '-Werror',
  ]);
  const testClasspath = [dirs.classes, dirs.stubs, jar('json'), jar('junit'), jar('hamcrest')];
  javac(dirs.tests, testClasspath, javaFiles(join(SDK, 'src/test/java')), ['-Xlint:all,-options']);
  return [dirs.tests, ...testClasspath];
}

/** The SDK's classes only: no stub and no test is shipped. */
export function writeJar(): number {
  run('jar', ['--create', '--file', JAR, '-C', join(OUT, 'classes'), '.']);
  return statSync(JAR).size;
}

/** The JUnit test classes under src/test/java, by name. */
function testClasses(): string[] {
  const root = join(SDK, 'src/test/java');
  return javaFiles(root)
    .filter((path) => path.endsWith('Test.java'))
    .map((path) =>
      relative(root, path)
        .replace(/\.java$/, '')
        .replaceAll('/', '.'),
    );
}

const USAGE = 'usage: npm run sdk:android -- [--test CLASS] [-Dname=value …] [--no-test] [--out DIR]';

function main(): void {
  helpIfAsked('sdk:android', {
    summary:
      'Compiles the Android SDK (javac --release 8), runs its JUnit suite and writes sdk/android/dist/lander-sdk.jar.',
    usage: USAGE,
    flags: [
      ['--test CLASS', 'run only that test class'],
      ['-Dname=value', "passed to the tests (the end-to-end test's worker URL)"],
      ['--no-test', 'only build'],
      ['--out DIR', 'build in DIR instead of sdk/android/dist'],
    ],
    example: 'npm run sdk:android -- --no-test',
  });
  // -D properties go to the JVM as they are; everything else is a flag of this command.
  cliArgs(
    'sdk:android',
    USAGE,
    { test: { type: 'string' }, 'no-test': { type: 'boolean' }, out: { type: 'string' } },
    args.filter((arg) => !arg.startsWith('-D')),
  );
  const only = args.includes('--test') ? args[args.indexOf('--test') + 1] : undefined;
  const properties = args.filter((arg) => arg.startsWith('-D'));
  const classpath = compile();
  if (!args.includes('--no-test')) {
    const classes = only ? [only] : testClasses().filter((name) => !name.endsWith('EndToEndTest'));
    run('java', [
      `-Dlander.conformance=${join(ROOT, 'sdk/conformance')}`,
      ...properties,
      '-cp',
      classpath.join(':'),
      'org.junit.runner.JUnitCore',
      ...classes,
    ]);
  }
  console.log(`${relative(ROOT, JAR)}: ${writeJar()} bytes`);
}

if (import.meta.main) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
