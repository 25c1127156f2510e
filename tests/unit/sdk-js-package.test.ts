/**
 * `@lander/sdk` as an app installs it: `npm pack` of sdk/js, the tarball installed into a scratch app
 * under a temp folder, and each tool apps resolve packages with — Node's `require` and `import`, Jest
 * (CommonJS), TypeScript (`node`, `node16`, `bundler`), Metro's resolver, Vite and webpack — finding
 * the right build and running it: an install with the React Native adapter over fake modules and a
 * fake fetch, answered as the server would (docs/sdk.md#install-anywhere).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import type { ExportedConfig } from '@expo/config-plugins';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSdk } from '../../scripts/sdk-js.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE = process.execPath;
const HOST = 'https://get.pebble-notes.example';
const CARRIER = 'Hq3x0v9gLwA8c2m5Yb7TnQ.abc';
const ANSWER = {
  matched: true,
  method: 'referrer',
  confidence: 1,
  data: { screen: 'welcome' },
  clickId: 'c1',
  clickedAt: '2026-01-05T10:00:00.000Z',
};
/** What every consumer prints: the answer, the request it made, and that the Capacitor entry loaded. */
const EXPECTED = {
  answer: ANSWER,
  path: '/api/a/install',
  carriers: { playReferrer: CARRIER },
  capacitor: 'function',
};

/**
 * The app's code, the same in every module system: `sdk`, `rn` and `cap` are the three entries as the
 * consumer imported them. Plain JavaScript that TypeScript also accepts (the parameters are `any`).
 */
const CHECK = `
async function check(sdk: any, rn: any, cap: any) {
  const sent: { url: string; body: any }[] = [];
  const fetch = async (url: string, init: { body: string }) => {
    sent.push({ url: String(url), body: JSON.parse(init.body) });
    return { status: 200, text: async () => ${JSON.stringify(JSON.stringify(ANSWER))} };
  };
  const kept = new Map();
  const platform = rn.reactNativePlatform({
    Clipboard: { hasURL: async () => false, getString: async () => '' },
    AsyncStorage: {
      getItem: async (key: string) => kept.get(key) ?? null,
      setItem: async (key: string, value: string) => void kept.set(key, value),
      removeItem: async (key: string) => void kept.delete(key),
    },
    PlayInstallReferrer: { getInstallReferrerInfo: (done: any) => done({ installReferrer: '${CARRIER}' }, null) },
    Platform: { OS: 'android', Version: 34, constants: { Release: '14', Model: 'Pixel 8' } },
    Dimensions: { get: () => ({ width: 411, height: 914, scale: 2.625 }) },
  });
  const lander = sdk.createLander({ url: '${HOST}', app: 'com.pebble.notes', platform, fetch });
  const answer = await lander.install();
  const first = sent[0] ?? { url: 'none:', body: {} };
  console.log(JSON.stringify({
    answer,
    path: new URL(first.url).pathname,
    carriers: first.body.carriers,
    capacitor: typeof cap.capacitorPlatform,
  }));
}
`;
/** The same in plain JavaScript, for the consumers that are not TypeScript. */
const CHECK_JS = ts.transpileModule(CHECK, {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
}).outputText;

let tmp: string;
let app: string;
let installed: string;

/** Runs a program to completion and returns its output; throws with the end of its errors. */
function run(args: string[], cwd = app, timeout = 30_000): string {
  const result = spawnSync(args[0] ?? NODE, args.slice(1), { cwd, encoding: 'utf8', timeout });
  if (result.status !== 0) {
    throw new Error(`${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stderr.slice(-1500)}`);
  }
  return result.stdout;
}
/** The one JSON line a consumer printed. */
const printed = (output: string): unknown => JSON.parse(output.trim().split('\n').at(-1) ?? 'null');
const write = (file: string, text: string) => writeFileSync(join(app, file), text);
/** A tool of the repository's own node_modules, linked into the scratch app as the app would have it. */
const link = (name: string) => {
  mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name));
};

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'lander-sdk-package-')));
  app = join(tmp, 'app');
  mkdirSync(app);
  await buildSdk();
  const [packed] = JSON.parse(
    run(['npm', 'pack', '--json', '--ignore-scripts', '--pack-destination', tmp], join(ROOT, 'sdk/js')),
  ) as { filename: string }[];
  write('package.json', JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true }));
  run([
    'npm',
    'install',
    '--offline',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    join(tmp, packed?.filename ?? ''),
  ]);
  installed = join(app, 'node_modules/@lander/sdk');
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the builds, the types, the Expo plugin and the README, and nothing else', () => {
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: installed, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => file.slice(2))
      .sort();
    for (const entry of ['index', 'react-native', 'capacitor']) {
      expect(files).toContain(`dist/${entry}.js`);
      expect(files).toContain(`dist/${entry}.mjs`);
    }
    expect(files).toContain('dist/types/index.d.ts');
    expect(files).toContain('dist/types/index.d.mts');
    expect(files).toContain('app.plugin.js');
    expect(files).toContain('README.md');
    expect(files.filter((file) => !/^(dist\/|react-native\/|capacitor\/)/.test(file)).sort()).toEqual([
      'README.md',
      'app.plugin.js',
      'package.json',
    ]);
  });
});

describe('Node', () => {
  it('require() loads the CommonJS build and runs it', () => {
    write(
      'require.cjs',
      `${CHECK_JS}
      check(require('@lander/sdk'), require('@lander/sdk/react-native'), require('@lander/sdk/capacitor'));`,
    );
    expect(printed(run([NODE, 'require.cjs']))).toEqual(EXPECTED);
    expect(run([NODE, '-p', "require.resolve('@lander/sdk')"]).trim()).toBe(join(installed, 'dist/index.js'));
  });

  it('import loads the ESM build and runs it', () => {
    write(
      'import.mjs',
      `${CHECK_JS}
      import * as sdk from '@lander/sdk';
      import * as rn from '@lander/sdk/react-native';
      import * as cap from '@lander/sdk/capacitor';
      await check(sdk, rn, cap);`,
    );
    expect(printed(run([NODE, 'import.mjs']))).toEqual(EXPECTED);
    const resolved = run([NODE, '--input-type=module', '-e', "console.log(import.meta.resolve('@lander/sdk'))"]);
    expect(resolved.trim()).toBe(`file://${join(installed, 'dist/index.mjs')}`);
  });
});

describe('Jest (CommonJS)', () => {
  it('resolves the CommonJS build and runs it in a test', () => {
    link('jest-environment-node');
    write('jest.config.cjs', "module.exports = { testEnvironment: 'node', transform: {}, watchman: false };");
    write(
      'sdk.test.cjs',
      `${CHECK_JS}
      test('installs', async () => {
        expect(require.resolve('@lander/sdk')).toMatch(/dist\\/index\\.js$/);
        const lines = [];
        const log = console.log;
        console.log = (line) => lines.push(line);
        try {
          await check(require('@lander/sdk'), require('@lander/sdk/react-native'), require('@lander/sdk/capacitor'));
        } finally {
          console.log = log;
        }
        expect(JSON.parse(lines[0])).toEqual(${JSON.stringify(EXPECTED)});
      });`,
    );
    const jest = join(ROOT, 'node_modules/jest/bin/jest.js');
    const jestRun = spawnSync(NODE, [jest, '--ci', '--cacheDirectory', join(tmp, 'jest-cache'), 'sdk.test.cjs'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 45_000,
    });
    expect(jestRun.stderr).toMatch(/Tests: +1 passed, 1 total/);
    expect(jestRun.status).toBe(0);
  }, 60_000);
});

describe('TypeScript', () => {
  /** Type-checks `files` with `options` (strict), emits them, and returns the emitted files' paths. */
  function compile(files: string[], options: ts.CompilerOptions, outDir: string): string[] {
    const program = ts.createProgram(
      files.map((file) => join(app, file)),
      { strict: true, target: ts.ScriptTarget.ES2022, types: [], outDir: join(app, outDir), ...options },
    );
    const emitted: string[] = [];
    const result = program.emit(undefined, (file, text) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
      emitted.push(file);
    });
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
    expect(diagnostics).toEqual([]);
    return emitted;
  }
  /**
   * A consumer written as an app would: the types are the package's (a wrong option fails to compile,
   * so `any` would be caught by the unused `@ts-expect-error`), and the three entries run.
   */
  const consumer = (imports: string, run: string) => `${imports}
${CHECK}
const answer: Promise<Answer> = createLander({ url: '${HOST}', app: 'a', platform: { storage: memoryStore(), device: () => ({ platform: 'android', osVersion: '14', screen: { w: 1, h: 1, scale: 1 }, tz: 'UTC', langs: ['en'] }) }, fetch: async () => new Response('{"matched":false,"reason":"none"}') }).install();
// @ts-expect-error: the options' types come from the package
const wrong = () => createLander({ url: 1 });
const adapter: (modules: never) => PlatformAdapter = reactNativePlatform;
void answer; void adapter; void wrong; void capacitorPlatform;
${run}
`;
  const typed = "import { type Answer, createLander, memoryStore, type PlatformAdapter } from '@lander/sdk';";
  const adapters =
    "import { reactNativePlatform } from '@lander/sdk/react-native';\nimport { capacitorPlatform } from '@lander/sdk/capacitor';";
  // An app's tsconfig checks its own files; the adapters' declarations name the React Native and
  // Capacitor packages the app has (not this scratch one), as React Native's and Expo's own
  // tsconfig bases do with `skipLibCheck`.
  const appOptions = { skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] };

  it('moduleResolution node (CommonJS output) finds the types and the build', () => {
    write(
      'ts-node10.ts',
      consumer(
        `${typed}\n${adapters}\nimport * as sdk from '@lander/sdk';\nimport * as rn from '@lander/sdk/react-native';\nimport * as cap from '@lander/sdk/capacitor';`,
        'check(sdk, rn, cap);',
      ),
    );
    const [out] = compile(
      ['ts-node10.ts'],
      { ...appOptions, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
      'out-node10',
    );
    expect(printed(run([NODE, out ?? '']))).toEqual(EXPECTED);
  });

  it('moduleResolution node16: `require` types for a .cts file, `import` types for a .mts file', () => {
    const imports = `${typed}\n${adapters}\nimport * as sdk from '@lander/sdk';\nimport * as rn from '@lander/sdk/react-native';\nimport * as cap from '@lander/sdk/capacitor';`;
    write('ts-node16.cts', consumer(imports, 'check(sdk, rn, cap);'));
    write('ts-node16.mts', consumer(imports, 'await check(sdk, rn, cap);'));
    const out = compile(
      ['ts-node16.cts', 'ts-node16.mts'],
      { ...appOptions, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
      'out-node16',
    );
    expect(out.map((file) => relative(app, file)).sort()).toEqual([
      'out-node16/ts-node16.cjs',
      'out-node16/ts-node16.mjs',
    ]);
    for (const file of out) expect(printed(run([NODE, file]))).toEqual(EXPECTED);
    // Each module system got the declarations of its own build.
    const program = ts.createProgram([join(app, 'ts-node16.cts'), join(app, 'ts-node16.mts')], {
      ...appOptions,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      noEmit: true,
    });
    const declarations = program
      .getSourceFiles()
      .map((file) => relative(installed, file.fileName))
      .filter((file) => /^dist\/types\/index\.d\.m?ts$/.test(file));
    expect(declarations.sort()).toEqual(['dist/types/index.d.mts', 'dist/types/index.d.ts']);
  });

  it('moduleResolution bundler finds the ESM types, and the output runs', () => {
    write(
      'ts-bundler.ts',
      consumer(
        `${typed}\n${adapters}\nimport * as sdk from '@lander/sdk';\nimport * as rn from '@lander/sdk/react-native';\nimport * as cap from '@lander/sdk/capacitor';`,
        'await check(sdk, rn, cap);\nexport {};',
      ),
    );
    mkdirSync(join(app, 'out-bundler'), { recursive: true });
    writeFileSync(join(app, 'out-bundler/package.json'), '{"type":"module"}');
    const [out] = compile(
      ['ts-bundler.ts'],
      { ...appOptions, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
      'out-bundler',
    );
    expect(printed(run([NODE, out ?? '']))).toEqual(EXPECTED);
  });
});

describe('Metro (metro-resolver)', () => {
  /** Metro's resolution context over the real file system, as React Native's Metro config sets it. */
  async function metroContext(exportsOn: boolean, isESMImport: boolean) {
    const { default: createDefaultContext } = await import('metro-resolver/private/createDefaultContext');
    const lookup = (path: string) => {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat
        ? ({ exists: true, type: stat.isDirectory() ? 'd' : 'f', realPath: realpathSync(path) } as const)
        : ({ exists: false } as const);
    };
    return createDefaultContext(
      {
        allowHaste: false,
        assetExts: new Set(['png', 'jpg']),
        customResolverOptions: {},
        disableHierarchicalLookup: false,
        doesFileExist: (path: string) => lookup(path).exists && lookup(path).type === 'f',
        extraNodeModules: null,
        dev: true,
        getPackage: (path: string) => {
          try {
            return JSON.parse(readFileSync(path, 'utf8'));
          } catch {
            return null;
          }
        },
        // The closest package.json scope of a candidate path (itself first), below its node_modules folder.
        getPackageForModule: (path: string) => {
          for (let dir = path; basename(dir) !== 'node_modules' && dir !== dirname(dir); dir = dirname(dir)) {
            const manifest = join(dir, 'package.json');
            if (lookup(manifest).exists) {
              const packageJson = JSON.parse(readFileSync(manifest, 'utf8'));
              return { packageJson, rootPath: dir, packageRelativePath: relative(dir, path) };
            }
          }
          return null;
        },
        isESMImport,
        fileSystemLookup: lookup,
        mainFields: ['react-native', 'browser', 'main'],
        originModulePath: join(app, 'index.js'),
        nodeModulesPaths: [],
        preferNativePlatform: true,
        resolveAsset: () => null,
        resolveHasteModule: () => null,
        resolveHastePackage: () => null,
        sourceExts: ['js', 'jsx', 'json', 'ts', 'tsx'],
        unstable_conditionNames: ['react-native'],
        unstable_conditionsByPlatform: { web: ['browser'] },
        unstable_enablePackageExports: exportsOn,
        unstable_incrementalResolution: false,
        unstable_logWarning: (message: string) => {
          throw new Error(message);
        },
      } as never,
      undefined as never,
    );
  }

  // An `import` with package exports (React Native 0.79+) takes the ESM build of the root; the adapters'
  // folders (for resolvers without exports) are their own package scopes to Metro: CommonJS.
  for (const [exportsOn, isESMImport, builds] of [
    [true, false, ['.js', '.js', '.js']],
    [true, true, ['.mjs', '.js', '.js']],
    [false, false, ['.js', '.js', '.js']],
    [false, true, ['.js', '.js', '.js']],
  ] as const) {
    it(`${exportsOn ? 'with' : 'without'} package exports, ${isESMImport ? 'import' : 'require'}: ${builds.join(', ')}, which run`, async () => {
      const { resolve } = await import('metro-resolver');
      const context = await metroContext(exportsOn, isESMImport);
      const paths = ['@lander/sdk', '@lander/sdk/react-native', '@lander/sdk/capacitor'].map((name) => {
        const resolution = resolve(context as never, name, 'android');
        if (resolution.type !== 'sourceFile') throw new Error(`${name}: ${resolution.type}`);
        return resolution.filePath;
      });
      expect(paths.map((path) => relative(installed, path))).toEqual([
        `dist/index${builds[0]}`,
        `dist/react-native${builds[1]}`,
        `dist/capacitor${builds[2]}`,
      ]);
      // What Metro bundles, each file as its module system loads it: `.js` with require, `.mjs` as ESM.
      write(
        'metro.mjs',
        `${CHECK_JS}\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n` +
          `await check(...(await Promise.all(${JSON.stringify(paths)}.map((path) => (path.endsWith('.mjs') ? import(path) : require(path))))));`,
      );
      expect(printed(run([NODE, 'metro.mjs']))).toEqual(EXPECTED);
    });
  }
});

describe('bundlers', () => {
  const entry = (system: 'import' | 'require') =>
    system === 'import'
      ? `${CHECK_JS}\nimport * as sdk from '@lander/sdk';\nimport * as rn from '@lander/sdk/react-native';\nimport * as cap from '@lander/sdk/capacitor';\nawait check(sdk, rn, cap);`
      : `${CHECK_JS}\ncheck(require('@lander/sdk'), require('@lander/sdk/react-native'), require('@lander/sdk/capacitor'));`;

  it('Vite bundles the ESM build, and the bundle runs', async () => {
    const { build } = await import('vite');
    write('vite-entry.mjs', entry('import'));
    const loaded: string[] = [];
    await build({
      root: app,
      configFile: false,
      logLevel: 'silent',
      plugins: [{ name: 'loaded', load: (id) => void loaded.push(id) }],
      build: {
        outDir: join(app, 'out-vite'),
        minify: false,
        target: 'esnext',
        lib: { entry: join(app, 'vite-entry.mjs'), formats: ['es'], fileName: () => 'bundle.mjs' },
      },
    });
    expect(
      loaded
        .filter((id) => id.includes('@lander'))
        .map((id) => relative(installed, id))
        .sort(),
    ).toEqual(['dist/capacitor.mjs', 'dist/index.mjs', 'dist/react-native.mjs']);
    expect(printed(run([NODE, join(app, 'out-vite/bundle.mjs')]))).toEqual(EXPECTED);
  });

  for (const system of ['import', 'require'] as const) {
    it(`webpack bundles the ${system === 'import' ? 'ESM' : 'CommonJS'} build for ${system}, and the bundle runs`, async () => {
      const { default: webpack } = await import('webpack');
      const file = `webpack-${system}.${system === 'import' ? 'mjs' : 'cjs'}`;
      write(file, entry(system));
      const stats = await new Promise<import('webpack').Stats>((resolve, reject) =>
        webpack(
          {
            context: app,
            entry: `./${file}`,
            mode: 'production',
            target: 'node',
            devtool: false,
            optimization: { minimize: false },
            experiments: { topLevelAwait: true },
            output: { path: join(app, 'out-webpack'), filename: `${system}.cjs` },
          },
          (error, result) => (error || !result ? reject(error) : resolve(result)),
        ),
      );
      expect(stats.toJson({ all: false, errors: true }).errors).toEqual([]);
      const modules = (stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? []).flatMap(
        (module) => [module.name ?? '', ...(module.modules ?? []).map((inner) => inner.name ?? '')],
      );
      const build = system === 'import' ? 'mjs' : 'js';
      for (const name of ['index', 'react-native', 'capacitor']) {
        expect(modules).toContain(`./node_modules/@lander/sdk/dist/${name}.${build}`);
      }
      expect(printed(run([NODE, join(app, `out-webpack/${system}.cjs`)]))).toEqual(EXPECTED);
    });
  }
});

describe('the Expo config plugin (app.plugin.js)', () => {
  /** The app's config after `plugins: [['@lander/sdk', props]]`, resolved as Expo resolves plugins. */
  async function configured(props: Record<string, unknown>) {
    if (!statSync(join(app, 'node_modules/@expo/config-plugins'), { throwIfNoEntry: false })) {
      link('@expo/config-plugins');
    }
    const plugins = await import('@expo/config-plugins');
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const config: ExportedConfig = plugins.withStaticPlugin(
        { name: 'Pebble Notes', slug: 'pebble-notes', android: { package: 'com.pebble.notes' } },
        { plugin: ['@lander/sdk', props], projectRoot: app },
      );
      return { config, plugins, warnings };
    } finally {
      console.warn = warn;
    }
  }

  it("adds the deployment's Universal Links and verified App Links, which Expo writes into the native projects", async () => {
    const { config, plugins, warnings } = await configured({ url: HOST, paths: ['/open/*', '/s/*/go'] });
    expect(warnings).toEqual([]);
    expect(config.ios?.associatedDomains).toEqual(['applinks:get.pebble-notes.example']);
    const entitlements = plugins.IOSConfig.Entitlements.setAssociatedDomains(config, {});
    expect(entitlements['com.apple.developer.associated-domains']).toEqual(['applinks:get.pebble-notes.example']);
    // A new app's main activity, as Expo's template has it.
    const launcher = {
      action: [{ $: { 'android:name': 'android.intent.action.MAIN' } }],
      category: [{ $: { 'android:name': 'android.intent.category.LAUNCHER' } }],
    };
    const manifest = plugins.AndroidConfig.IntentFilters.setAndroidIntentFilters(config, {
      manifest: {
        $: { 'xmlns:android': 'http://schemas.android.com/apk/res/android' },
        application: [
          {
            $: { 'android:name': '.MainApplication' },
            activity: [{ $: { 'android:name': '.MainActivity' }, 'intent-filter': [launcher] }],
          },
        ],
      },
    } as never);
    const [first, filter] = manifest.manifest.application?.[0]?.activity?.[0]?.['intent-filter'] ?? [];
    expect(first).toEqual(launcher);
    expect(filter).toEqual({
      $: { 'android:autoVerify': 'true', 'data-generated': 'true' },
      action: [{ $: { 'android:name': 'android.intent.action.VIEW' } }],
      data: [
        {
          $: { 'android:scheme': 'https', 'android:host': 'get.pebble-notes.example', 'android:pathPrefix': '/open/' },
        },
        {
          $: {
            'android:scheme': 'https',
            'android:host': 'get.pebble-notes.example',
            'android:pathPattern': '/s/.*/go',
          },
        },
      ],
      category: [
        { $: { 'android:name': 'android.intent.category.BROWSABLE' } },
        { $: { 'android:name': 'android.intent.category.DEFAULT' } },
      ],
    });
  });

  it("puts the Play referrer client's permission and Play's package visibility in AndroidManifest.xml, once", async () => {
    const { config } = await configured({});
    expect(config.ios?.associatedDomains).toBeUndefined();
    const manifestMod = config.mods?.android?.manifest as unknown as (c: object) => Promise<{ modResults: never }>;
    const permission = { $: { 'android:name': 'android.permission.INTERNET' } };
    const run = async (manifest: object) =>
      (
        await manifestMod({
          ...config,
          modResults: manifest,
          modRequest: { platform: 'android', modName: 'manifest', projectRoot: app, introspect: true },
        })
      ).modResults as { manifest: Record<string, unknown> };
    const once = await run({ manifest: { $: {}, 'uses-permission': [permission] } });
    expect(once.manifest['uses-permission']).toEqual([
      permission,
      { $: { 'android:name': 'com.google.android.finsky.permission.BIND_GET_INSTALL_REFERRER_SERVICE' } },
    ]);
    expect(once.manifest.queries).toEqual([{ package: [{ $: { 'android:name': 'com.android.vending' } }] }]);
    const twice = await run(structuredClone(once));
    expect(twice).toEqual(once);
  });

  it('adds nothing for the referrer with playReferrer: false, and refuses a url that is not https', async () => {
    expect((await configured({ playReferrer: false })).config.mods?.android?.manifest).toBeUndefined();
    await expect(configured({ url: 'http://get.pebble-notes.example' })).rejects.toThrow(/"url" must use https/);
  });
});
