import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryLine } from '../plain-summary-reporter.ts';

const reporter = resolve('tests/plain-summary-reporter.ts');
const vitest = resolve('node_modules/vitest/vitest.mjs');

/** Runs vitest on one test file in a folder of its own, with the reporter, and returns its output. */
function runWithReporter(source: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'plain-summary-'));
  writeFileSync(join(folder, 'sample.test.ts'), source);
  writeFileSync(join(folder, 'vitest.config.mjs'), 'export default {};\n');
  try {
    return execFileSync(process.execPath, [vitest, 'run', '--root', folder, '--reporter', reporter], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (failure) {
    return String((failure as { stdout: string }).stdout);
  }
}

describe('the plain summary line', () => {
  it('reads "N passed, N failed", with skipped only when some are, and nothing before the count', () => {
    expect(summaryLine({ passed: 3, failed: 0, skipped: 0 })).toBe('3 passed, 0 failed');
    expect(summaryLine({ passed: 1, failed: 2, skipped: 4 })).toBe('1 passed, 2 failed, 4 skipped');
  });

  it('counts the passed, failed and skipped tests of a real run, alone on its line', () => {
    const output = runWithReporter(`
      import { it, expect } from 'vitest';
      it('one', () => expect(1).toBe(1));
      it('two', () => expect(2).toBe(2));
      it('three', () => expect(3).toBe(4));
      it.skip('four', () => {});
    `);
    expect(output.split('\n')).toContain('2 passed, 1 failed, 1 skipped');
  }, 60_000);

  it('counts a file that cannot load as a failure, not as zero tests passed', () => {
    const output = runWithReporter(`throw new Error('broken at load');`);
    expect(output.split('\n')).toContain('0 passed, 1 failed');
  }, 60_000);
});
