import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCycles, hubBreaks, mutualWings, wingBreaks } from '../architecture/wings.ts';
import { findCycles, importGraph, ROOT, requestPath, ruleBreaks, WORKER_ENTRY } from '../architecture.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-architecture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('architecture', () => {
  it('finds no import cycle and no broken folder rule in the repository', () => {
    const graph = importGraph(ROOT);
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph)).toEqual([]);
    expect(ruleBreaks(graph)).toEqual([]);
    expect(hubBreaks(graph)).toEqual([]);
    expect(folderCycles(graph)).toEqual([]);
    expect(mutualWings(graph)).toEqual([]);
    expect(wingBreaks(graph)).toEqual([]);
    expect(requestPath(graph)[0]).toBe(WORKER_ENTRY);
  });

  /** A worker of fixture files under a fresh root, graphed. */
  function worker(name: string, files: Record<string, string>) {
    const root = join(dir, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return importGraph(root, ['worker']);
  }

  it('reports a cycle of folders inside the worker, though no file imports itself again', () => {
    const graph = worker('folder-cycle', {
      'worker/funnel/count.ts': "import { tap } from '../attribution/tap.ts';\nexport const count = tap;\n",
      'worker/attribution/tap.ts': 'export const tap = 1;\n',
      'worker/attribution/routes.ts': "import { count } from '../funnel/count.ts';\nexport const r = count;\n",
    });
    expect(findCycles(graph)).toEqual([]);
    expect(folderCycles(graph)).toEqual([['worker/attribution/', 'worker/funnel/']]);
    expect(mutualWings(graph)).toEqual(['attribution ⇄ funnel']);
  });

  it('reports a listener that imports its producer back through the announcing composer', () => {
    const graph = worker('through-announce', {
      'worker/facts.ts': 'export type Fact = { fact: string };\n',
      'worker/announce.ts':
        "import { countFact } from './funnel/count-facts.ts';\nexport const announce = countFact;\n",
      'worker/funnel/count-facts.ts':
        "import { tapLink } from '../attribution/tap-link.ts';\nexport const countFact = tapLink;\n",
      'worker/attribution/tap-link.ts': 'export const tapLink = 1;\n',
      'worker/attribution/routes.ts': "import { announce } from '../announce.ts';\nexport const r = announce;\n",
    });
    expect(folderCycles(graph)).toEqual([['worker/announce.ts', 'worker/attribution/', 'worker/funnel/']]);
  });

  it('passes producer → announce → listeners, one way, with the facts as a hub', () => {
    const graph = worker('one-way', {
      'worker/facts.ts': "import { A } from '../shared/a.ts';\nexport type Fact = { fact: typeof A };\n",
      'worker/announce.ts':
        "import type { Fact } from './facts.ts';\nimport { countFact } from './funnel/count-facts.ts';\nexport const announce = (f: Fact) => countFact(f);\n",
      'worker/funnel/count-facts.ts':
        "import type { Fact } from '../facts.ts';\nexport const countFact = (f: Fact) => f;\n",
      'worker/attribution/routes.ts': "import { announce } from '../announce.ts';\nexport const r = announce;\n",
    });
    expect(folderCycles(graph)).toEqual([]);
    expect(wingBreaks(graph)).toEqual([]);
    expect(hubBreaks(graph)).toEqual([]);
  });

  it('reports a wing importing another wing unless that one-way use is declared', () => {
    const graph = worker('wing-to-wing', {
      'worker/webhooks/send.ts': "import { flag } from '../fraud/flag.ts';\nexport const send = flag;\n",
      'worker/fraud/flag.ts': "import { MAX } from '../facts.ts';\nexport const flag = MAX;\n",
      'worker/facts.ts': 'export const MAX = 1;\n',
      'worker/config/read.ts': 'export const read = 1;\n',
      'worker/exports/daily.ts': "import { read } from '../config/read.ts';\nexport const d = read;\n",
    });
    expect(wingBreaks(graph)).toEqual(['worker/webhooks/send.ts → worker/fraud/flag.ts']);
    expect(wingBreaks(graph, { webhooks: { uses: ['fraud'] } })).toEqual([]);
    expect(mutualWings(graph)).toEqual([]);
  });

  it('reports an arrow from a hub into a wing, but not from the entry or the environment types', () => {
    const root = join(dir, 'hubs');
    const put = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put('worker/funnel/count.ts', 'export const count = 1;\n');
    put('worker/lib/uses-funnel.ts', "import { count } from '../funnel/count.ts';\nexport const u = count;\n");
    put('worker/settings.ts', "import { count } from './funnel/count.ts';\nexport const s = count;\n");
    put('worker/lib/plain.ts', "import { s } from '../settings.ts';\nexport const p = s;\n");
    put('worker/index.ts', "import { count } from './funnel/count.ts';\nexport default count;\n");
    put('worker/env.ts', "import type { count } from './funnel/count.ts';\nexport type C = typeof count;\n");
    expect(hubBreaks(importGraph(root, ['worker']))).toEqual([
      'worker/lib/uses-funnel.ts → worker/funnel/count.ts',
      'worker/settings.ts → worker/funnel/count.ts',
    ]);
  });

  it('detects a cycle through static imports, type-only ones included, but not through import()', () => {
    write('shared/a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    write('shared/b.ts', "import type { C } from './c.ts';\nexport const b: C = 1;\n");
    write('shared/c.ts', "import { a } from './a.ts';\nexport type C = typeof a;\n");
    write('shared/lazy.ts', "export const load = () => import('./lazy-back.ts');\n");
    write('shared/lazy-back.ts', "import { load } from './lazy.ts';\nexport const again = load;\n");
    const cycles = findCycles(importGraph(dir, ['shared']));
    expect(cycles).toEqual([['shared/a.ts', 'shared/b.ts', 'shared/c.ts', 'shared/a.ts']]);
  });

  it('reports an import across a folder rule', () => {
    write('rules/shared/uses-worker.ts', "import { w } from '../worker/w.ts';\nexport const u = w;\n");
    write('rules/worker/w.ts', 'export const w = 1;\n');
    expect(ruleBreaks(importGraph(join(dir, 'rules'), ['shared', 'worker']))).toEqual([
      'shared/uses-worker.ts → worker/w.ts',
    ]);
  });

  it('follows run-time imports and only the download screen among lazy ones on the request path', () => {
    const root = join(dir, 'path');
    const put = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put(
      'worker/index.ts',
      "import { r } from '../client/app/routes.tsx';\nimport type { T } from './t.ts';\nexport const x: T = r;\n",
    );
    put('worker/t.ts', 'export type T = unknown;\n');
    put(
      'client/app/routes.tsx',
      "export const r = [() => import('./download/download-page.tsx'), () => import('./landing/landing-page.tsx')];\n",
    );
    put('client/app/download/download-page.tsx', 'export const d = 1;\n');
    put('client/app/landing/landing-page.tsx', 'export const l = 1;\n');
    expect(requestPath(importGraph(root, ['worker', 'client']))).toEqual([
      'worker/index.ts',
      'client/app/routes.tsx',
      'client/app/download/download-page.tsx',
    ]);
  });
});
