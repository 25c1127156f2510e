/**
 * Docs that cannot drift: every repository path a doc or a code comment names exists, and the README's
 * folder tree names every folder the repository has (to the depth it draws). A renamed or moved file
 * fails here until the words that name it follow.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const present = tracked.filter((file) => existsSync(join(ROOT, file)));

/** Paths named on purpose though absent, each with why. */
const ABSENT_ON_PURPOSE: Record<string, string> = {
  'public/.well-known/': 'must stay empty: the worker answers /.well-known/* (tests/unit/well-known-assets.test.ts)',
  'conf/hsts-preload.json': "a file inside the observatory's npm package, not this repository's",
};

/** Folders whose files a path may be written relative to, besides the naming file's own folder. */
const SOURCE_ROOTS = [
  '',
  'worker',
  'client',
  'client/app',
  'client/browser',
  'shared',
  'scripts',
  'tools',
  'tests',
  'sdk/js',
  'docs',
];
const TOP = ['.ci', 'docs', 'worker', 'client', 'shared', 'scripts', 'tools', 'tests', 'sdk', 'migrations', 'public'];

/** A path from the repository's root (a top folder, a slash, the rest), or one with an extension relative to a folder. */
const FROM_ROOT = new RegExp(
  String.raw`(?<![\w./@:-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\w./-]*[\w/])`,
  'g',
);
const RELATIVE = /(?<![\w./@:-])((?:\.\.\/)*[a-z][\w-]*\/[\w./-]*\.(?:tsx?|md|sql|java|css))\b/g;
const COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
const FENCED = /^```[\s\S]*?^```/gm;

const exists = (path: string) => {
  const bare = path.replace(/\/$/, '');
  // A prefix names a family of files (`docs/decisions/006` is `006-….md`); build output is never tracked.
  return (
    existsSync(join(ROOT, bare)) ||
    present.some((file) => file.startsWith(bare)) ||
    /(^|\/)(dist|node_modules)(\/|$)/.test(bare)
  );
};

/** The text of `file` where paths are named: a doc's prose (its code samples aside), a source file's comments. */
function namingText(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (file.endsWith('.md')) return text.replace(FENCED, '');
  return (text.match(COMMENTS) ?? []).join('\n');
}

function missingPaths(): string[] {
  const missing: string[] = [];
  const namers = present.filter(
    (file) =>
      /\.(md|tsx?|java|css)$/.test(file) &&
      // The generated figures are rewritten by their tools; the tools' tests name made-up files on purpose.
      !file.startsWith('docs/generated/') &&
      !file.startsWith('tools/tests/'),
  );
  for (const file of namers) {
    const text = namingText(file);
    for (const [, raw] of text.matchAll(FROM_ROOT)) {
      const path = (raw ?? '').replace(/\.$/, '');
      if (!(path in ABSENT_ON_PURPOSE) && !exists(path)) missing.push(`${file}: ${path}`);
    }
    for (const [, path = ''] of text.matchAll(RELATIVE)) {
      if (path in ABSENT_ON_PURPOSE || /(^|\/)(dist|node_modules)\//.test(path)) continue;
      const candidates = [normalize(join(dirname(file), path)), ...SOURCE_ROOTS.map((root) => join(root, path))];
      if (!candidates.some((candidate) => existsSync(join(ROOT, candidate)))) missing.push(`${file}: ${path}`);
    }
  }
  return missing;
}

/** The folders the README's tree draws, as paths: a name ending in `/`, nested by its indentation. */
function readmeFolders(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tree = readme.split('## Folders')[1]?.match(/```\n([\s\S]*?)```/)?.[1] ?? '';
  const folders = new Set<string>();
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const depth = (line.length - line.trimStart().length) / 2;
    const names: string[] = [];
    for (const token of line.trim().split(/\s+/)) {
      if (!token.endsWith('/')) break;
      names.push(token.slice(0, -1));
    }
    for (const name of names) {
      const path = [...parents.slice(0, depth), name].join('/');
      folders.add(path);
    }
    if (names.length === 1) parents[depth] = names[0] ?? '';
  }
  return folders;
}

/** Every tracked folder to the depth the README draws: top level, their children, and the client's two apps' children. */
function repositoryFolders(): string[] {
  const folders = new Set<string>();
  for (const file of present) {
    const parts = file.split('/').slice(0, -1);
    const top = parts[0] ?? '';
    if (!top || (top.startsWith('.') && top !== '.ci')) continue;
    const depth = top === 'client' ? 3 : top === 'docs' || top === 'migrations' || top === 'public' ? 1 : 2;
    for (let at = 1; at <= Math.min(depth, parts.length); at += 1) folders.add(parts.slice(0, at).join('/'));
  }
  return [...folders].sort();
}

describe('docs that cannot drift', () => {
  it('name only paths that exist, in docs and in code comments', () => {
    expect(missingPaths()).toEqual([]);
  });

  it("draw every folder in the README's tree", () => {
    const drawn = readmeFolders();
    expect(repositoryFolders().filter((folder) => !drawn.has(folder))).toEqual([]);
  });

  it("link every page of docs/ from the README's table of where to read on", () => {
    const table = readFileSync(join(ROOT, 'README.md'), 'utf8').split('## Read on')[1]?.split('## ')[0] ?? '';
    const pages = present.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    expect(pages.filter((page) => !table.includes(`(${page})`))).toEqual([]);
  });

  it('keep the README short: what Lander is, the two commands, where to read on', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(120);
  });
});
