/**
 * Every `ts` example of docs/sdk.md runs as written against the started worker: each block is a
 * module of its own, its `@lander/sdk` imports the SDK's sources, the page's URL the started
 * worker's (the app id is the demo's, as written), and the platform modules a React Native or Capacitor fragment names but does not
 * import (`Clipboard`, `Preferences`…) small fakes of their documented calls. Each must end without
 * an error, its `install()` answered by the worker — never "rejected" or "offline".
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';

const baseURL = inject('baseURL');
const run = promisify(execFile);
/** The app id the started worker's demo configuration knows (worker/config/demo.json). */
const APP = 'com.pebble.notes';
const SDK = (entry: string) => pathToFileURL(resolve(`sdk/js/src/${entry}`)).href;

/** The `ts` blocks of docs/sdk.md, each with the heading it stands under. */
function examples(): { heading: string; code: string }[] {
  const found: { heading: string; code: string }[] = [];
  let heading = '';
  for (const part of readFileSync('docs/sdk.md', 'utf8').split(/^```/m).entries()) {
    const [index, text] = part;
    if (index % 2 === 0) {
      heading = [...text.matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? heading;
      continue;
    }
    if (text.startsWith('ts\n')) found.push({ heading, code: text.slice(3) });
  }
  return found;
}

/**
 * Fakes of the platform modules the fragments name, after their packages' documented calls: an
 * empty clipboard, a Map for storage, a phone's device facts, no Play referrer.
 */
const FAKES: Record<string, string> = {
  Clipboard:
    'const Clipboard = { hasURL: async () => false, getString: async () => "", read: async () => ({ type: "text/plain", value: "" }) };',
  AsyncStorage:
    'const AsyncStorage = (() => { const m = new Map(); return { getItem: async (k) => m.get(k) ?? null, setItem: async (k, v) => void m.set(k, v), removeItem: async (k) => void m.delete(k) }; })();',
  PlayInstallReferrer:
    'const PlayInstallReferrer = { getInstallReferrerInfo: (done) => done(null, { message: "none" }) };',
  Platform: 'const Platform = { OS: "android", Version: 34, constants: { Release: "14", Model: "Pixel 8" } };',
  Dimensions: 'const Dimensions = { get: () => ({ width: 412, height: 915, scale: 2.625 }) };',
  Preferences:
    'const Preferences = (() => { const m = new Map(); return { get: async ({ key }) => ({ value: m.get(key) ?? null }), set: async ({ key, value }) => void m.set(key, value), remove: async ({ key }) => void m.delete(key) }; })();',
  Device:
    'const Device = { getInfo: async () => ({ platform: "android", osVersion: "14", model: "Pixel 8" }), getLanguageTag: async () => ({ value: "en-GB" }) };',
  url: `const url = ${JSON.stringify(baseURL)};`,
  app: `const app = ${JSON.stringify(APP)};`,
  createLander: `import { createLander } from ${JSON.stringify(SDK('index.ts'))};`,
};

/** `code` as a module to run: the SDK's sources, the worker's URL and app, the fakes it needs. */
function runnable(code: string): string {
  const body = code
    .replace(/'@lander\/sdk'/g, JSON.stringify(SDK('index.ts')))
    .replace(/'@lander\/sdk\/(react-native|capacitor)'/g, (_, entry: string) =>
      JSON.stringify(SDK(`adapters/${entry}.ts`)),
    )
    .replaceAll('https://get.pebble-notes.example', baseURL);
  const declared = new Set(
    [...body.matchAll(/\b(?:import\s*\{([^}]*)\}|(?:const|let)\s+(\w+))/g)].flatMap(([, names, name]) =>
      names
        ? names.split(',').map(
            (one) =>
              one
                .trim()
                .split(/\s+as\s+/)
                .at(-1) ?? '',
          )
        : [name ?? ''],
    ),
  );
  const needed = Object.entries(FAKES).filter(
    ([name]) => !declared.has(name) && new RegExp(`\\b${name}\\b`).test(body),
  );
  // A fragment that stops at its `lander` shows the answer the worker gave, as the others print theirs.
  const shows = /console\.log/.test(body) ? '' : '\nconsole.log(JSON.stringify(await lander.install()));';
  return `${needed.map(([, fake]) => fake).join('\n')}\n${body}${shows}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'lander-sdk-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/sdk.md's examples", () => {
  const found = examples();
  it('are there to run: the complete adapter among them', () => {
    expect(found.map(({ heading }) => heading)).toContain('A complete adapter: a plain Node or web app');
  });

  it.each(found.map((example, index) => [`${index + 1}. ${example.heading}`, example] as const))(
    'runs %s as written, answered by the worker',
    async (_, { code }) => {
      const file = join(dir, `example-${crypto.randomUUID().slice(0, 8)}.mts`);
      writeFileSync(file, runnable(code));
      const { stdout, stderr } = await run(process.execPath, [file], { timeout: 30_000, env: { ...process.env } });
      expect(stderr).not.toMatch(/Error/);
      expect(stdout).not.toMatch(/"reason":"(?:rejected|offline)"|not matched: (?:rejected|offline)/);
      expect(stdout).toMatch(/matched/);
    },
    40_000,
  );
});
