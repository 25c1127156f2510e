/**
 * The request path of `/` (tools/architecture/request-path.ts): the bundle-to-source mapping on a
 * tiny bundle with a hand-made source map, then the real measurement on workerd.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureTool, ROOT } from '../../scripts/lib/run.ts';
import { folderChanges, measureRequestPaths, positions, productFunctions } from '../architecture/request-path.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One source map segment: its fields as Base64 VLQs (sign in the lowest bit). */
function segment(fields: number[]): string {
  return fields
    .map((field) => {
      let value = field < 0 ? (-field << 1) | 1 : field << 1;
      let out = '';
      do {
        const digit = value & 31;
        value >>= 5;
        out += BASE64[value > 0 ? digit | 32 : digit];
      } while (value > 0);
      return out;
    })
    .join('');
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('request path', () => {
  it('turns offsets into zero-based lines and columns', () => {
    const at = positions('ab\ncd\n\nef');
    expect([0, 2, 3, 5, 6, 7, 8].map(at)).toEqual([
      { line: 0, column: 0 },
      { line: 0, column: 2 },
      { line: 1, column: 0 },
      { line: 1, column: 2 },
      { line: 2, column: 0 },
      { line: 3, column: 0 },
      { line: 3, column: 1 },
    ]);
  });

  it('places each bundled function in its product source file, and leaves out packages and unmapped glue', () => {
    const code = [
      'var glue = function () { return 1; };',
      'function fromWorker() {',
      '  return 2;',
      '}',
      'const fromClient = (x) => x + 1;',
      'function fromPackage() { return 3; }',
    ].join('\n');
    // Fields: generated column (per line), then source, line and column, each relative to the last.
    const mappings = ['', segment([0, 0, 0, 0]), '', '', `${segment([0, 1, 0, 0])},${segment([19, 0, 0, 6])}`];
    mappings.push(segment([0, 1, 0, -6]));
    const map = {
      version: 3,
      file: 'index.js',
      sources: ['../../worker/a.ts', '../../client/app/b.tsx', '../../node_modules/pkg/index.js'],
      sourceRoot: '',
      sourcesContent: [],
      names: [],
      mappings: mappings.join(';'),
    };
    expect(productFunctions(code, map, '/repo/dist/worker', '/repo')).toEqual([
      // Just inside the block's brace, so the breakpoint resolves inside the function.
      { file: 'worker/a.ts', body: { line: 1, column: 23 } },
      // An arrow's expression body, where it starts.
      { file: 'client/app/b.tsx', body: { line: 4, column: 26 } },
    ]);
  });

  it('counts a folder change between top folders, client/app and client/browser apart', () => {
    expect(folderChanges([])).toBe(0);
    expect(
      folderChanges(['worker/a.ts', 'worker/render/b.ts', 'shared/c.ts', 'client/app/d.tsx', 'client/browser/e.ts']),
    ).toBe(3);
  });

  it('measures on workerd that a kept page crosses the visitor and the kept pages but no screen', async () => {
    // `npm test` builds the client first; a lone `vitest run --project tools` may not have.
    if (!existsSync(join(ROOT, 'dist/client/.vite/manifest.json'))) {
      captureTool('vite', ['build', '--logLevel', 'warn']);
    }
    const outDir = mkdtempSync(join(tmpdir(), 'lander-request-path-'));
    dirs.push(outDir);
    const paths = await measureRequestPaths({ outDir });
    const kept = paths.kept.map(({ file }) => file);
    const rendered = paths.rendered.map(({ file }) => file);
    expect(kept).toContain('worker/device/device-detection.ts');
    expect(kept).toContain('worker/render/page-cache.ts');
    expect(kept.filter((file) => file.startsWith('client/app/'))).toEqual([]);
    expect(rendered).toContain('client/app/download/download-page.tsx');
    expect(rendered.length).toBeGreaterThan(kept.length);
  }, 120_000);
});
