/**
 * Every `java` example of docs/sdk.md compiles as written against the Android SDK's classes (built
 * by `npm run sdk:android -- --no-test --out …`) and the compile-only Android stubs, with
 * `javac --release 8`: an example that names a method the jar does not have fails here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const DOC = readFileSync(new URL('../../docs/sdk.md', import.meta.url), 'utf8');
/** The `java` fenced blocks of the page, in order. */
const EXAMPLES = [...DOC.matchAll(/^```java\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
const ANDROID_JSON = ['/usr/share/java/com.android.json.jar', '/usr/share/java/android-json.jar'];

const out = mkdtempSync(join(tmpdir(), 'sdk-android-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('docs/sdk.md: the Java examples', () => {
  const build = spawnSync(process.execPath, ['scripts/sdk-android.ts', '--no-test', '--out', join(out, 'sdk')], {
    encoding: 'utf8',
  });

  it('has at least one, a whole class', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(1);
    for (const example of EXAMPLES) expect(example).toMatch(/^public (final )?class \w+/m);
  });

  it.each(EXAMPLES.map((example, index) => [index + 1, example] as const))('example %i compiles', (index, example) => {
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    const name = /^public (?:final )?class (\w+)/m.exec(example)?.[1] ?? 'Example';
    const dir = join(out, `example-${index}`);
    mkdirSync(join(dir, 'classes'), { recursive: true });
    writeFileSync(join(dir, `${name}.java`), example);
    const json = ANDROID_JSON.find((path) => existsSync(path)) ?? ANDROID_JSON[0];
    const classpath = [join(out, 'sdk/classes'), join(out, 'sdk/stubs'), json].join(':');
    const javac = spawnSync(
      'javac',
      [
        '--release',
        '8',
        '-Xlint:all,-options',
        '-Werror',
        '-d',
        join(dir, 'classes'),
        '-cp',
        classpath,
        join(dir, `${name}.java`),
      ],
      { encoding: 'utf8' },
    );
    expect(javac.status, javac.stderr).toBe(0);
  });
});
