/**
 * A browser test file that writes the started worker's KV must run in the `browser-kv` project, one
 * file at a time (vitest.config.ts): beside other files, its configuration would change their pages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KV_WRITERS } from '../browser/kv-writers.ts';

const DIR = 'tests/browser';

describe('the browser projects', () => {
  it('run every file that writes the worker’s KV one at a time, in browser-kv', () => {
    const writers = readdirSync(DIR)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${DIR}/${name}`)
      .filter((path) => readFileSync(join(process.cwd(), path), 'utf8').includes("inject('kvPersistTo')"));
    expect(writers.length).toBeGreaterThan(0);
    for (const path of writers) expect(KV_WRITERS).toContain(path);
  });

  it('list only files that exist', () => {
    const files = new Set(readdirSync(DIR).map((name) => `${DIR}/${name}`));
    for (const path of KV_WRITERS) expect(files.has(path), path).toBe(true);
  });
});
