/**
 * The console's house rules (tools/architecture/console-rooms.ts): a room of `client/app/admin/`
 * imports only itself and the shared part, the shared part imports no room, and no function of the
 * console is over 80 lines; `npm run architecture` fails on either.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE, longFunctionsIn, roomBreaks, roomOf } from '../architecture/console-rooms.ts';
import { architectureFigures, importGraph, listFiles, ROOT } from '../architecture.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-console-rooms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A console of fixture files under a fresh root. */
function consoleOf(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A function of `lines` lines in all, its signature and closing brace included. */
const functionOf = (name: string, lines: number): string =>
  `export function ${name}() {\n${'  void 0;\n'.repeat(lines - 2)}}\n`;

describe('the console rooms', () => {
  it('hold in the repository: no room imports another, no function is over 80 lines', () => {
    expect(roomBreaks(importGraph(ROOT, ['client']))).toEqual([]);
    const files = listFiles(ROOT, CONSOLE, /\.tsx?$/);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => longFunctionsIn(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('name the room a file is in, and none for the dashboard’s own files', () => {
    expect(roomOf('client/app/admin/links/links-panel.tsx')).toBe('links');
    expect(roomOf('client/app/admin/shared/data-table.tsx')).toBe('shared');
    expect(roomOf('client/app/admin/dashboard.tsx')).toBeNull();
    expect(roomOf('client/app/download/links.tsx')).toBeNull();
  });

  it('report a room importing another room or the dashboard, and the shared part importing a room', () => {
    const root = consoleOf('across', {
      'client/app/admin/dashboard.tsx': "import { L } from './links/links-panel.tsx';\nexport const D = L;\n",
      'client/app/admin/links/links-panel.tsx':
        "import { F } from '../fraud/flag-list.tsx';\nimport { T } from '../shared/table.tsx';\nimport { A } from './links-api.ts';\nexport const L = [F, T, A];\n",
      'client/app/admin/links/links-api.ts': "import { D } from '../dashboard.tsx';\nexport const A = D;\n",
      'client/app/admin/fraud/flag-list.tsx': 'export const F = 1;\n',
      'client/app/admin/shared/table.tsx': "import { F } from '../fraud/flag-list.tsx';\nexport const T = F;\n",
    });
    expect(roomBreaks(importGraph(root, ['client']))).toEqual([
      'client/app/admin/links/links-api.ts → client/app/admin/dashboard.tsx',
      'client/app/admin/links/links-panel.tsx → client/app/admin/fraud/flag-list.tsx',
      'client/app/admin/shared/table.tsx → client/app/admin/fraud/flag-list.tsx',
    ]);
  });

  it('report a function over 80 lines, arrow functions and components included, but not one of 80', () => {
    const text = [
      functionOf('Fits', 80),
      functionOf('TooLong', 81),
      `export const Panel = () => {\n${'  void 0;\n'.repeat(85)}};\n`,
    ].join('');
    expect(longFunctionsIn('client/app/admin/x.tsx', text)).toEqual([
      'client/app/admin/x.tsx:81 TooLong (81 lines)',
      'client/app/admin/x.tsx:162 Panel (87 lines)',
    ]);
  });

  it('fail `npm run architecture` on a long function or a room importing another', () => {
    const long = consoleOf('figures-long', { 'client/app/admin/links/links-panel.tsx': functionOf('LinksPanel', 81) });
    const longFigures = architectureFigures(long);
    expect(longFigures.failed).toBe(true);
    expect(longFigures.text).toContain(
      'Console functions over 80 lines: 1\n\n- client/app/admin/links/links-panel.tsx:1 LinksPanel (81 lines)',
    );
    const across = consoleOf('figures-across', {
      'client/app/admin/links/links-panel.tsx': "import { F } from '../fraud/flag-list.tsx';\nexport const L = F;\n",
      'client/app/admin/fraud/flag-list.tsx': 'export const F = 1;\n',
    });
    const acrossFigures = architectureFigures(across);
    expect(acrossFigures.failed).toBe(true);
    expect(acrossFigures.text).toContain('Console rooms importing another room or the dashboard: 1\n');
    const clean = consoleOf('figures-clean', {
      'client/app/admin/links/links-panel.tsx': functionOf('LinksPanel', 80),
    });
    expect(architectureFigures(clean).failed).toBe(false);
  });
});
