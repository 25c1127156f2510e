/** Bytes a first visit to `/` loads as JavaScript, and the worker bundle, both gzip. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../lib/run.ts';
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';

const gzip = (buffer: Buffer): number => gzipSync(buffer, { level: 9 }).length;
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export const sizes: BenchSection = {
  title: 'Sizes',
  async run({ url }) {
    const html = await (await fetch(`${url}/`, { headers: { 'user-agent': IPHONE_UA } })).text();
    const scripts = new Set<string>();
    for (const match of html.matchAll(
      /<(?:script type="module" src|link rel="modulepreload"[^>]*href)="([^"]+\.js)"/g,
    )) {
      if (match[1]) scripts.add(match[1]);
    }
    const initial = [...scripts].reduce((sum, path) => sum + gzip(readFileSync(join(ROOT, 'dist/client', path))), 0);
    const worker = filesUnder(join(ROOT, 'dist/worker'))
      .filter((path) => path.endsWith('.js'))
      .reduce((sum, path) => sum + gzip(readFileSync(path)), 0);
    return [
      {
        name: `Initial JS of / (${scripts.size} files, gzip)`,
        value: kB(initial),
        budget: { limit: '≤ 100 kB', ok: initial <= 100_000 },
      },
      { name: 'Worker bundle (gzip)', value: kB(worker), budget: { limit: '≤ 350 kB', ok: worker <= 350_000 } },
    ];
  },
};
