/**
 * Ends a test run with one plain line, `N passed, N failed` (`, N skipped` when any are), with
 * no colour and no padding, beside vitest's own summary: a machine reading the log (CI) finds the
 * count there, and a run that executed nothing says `0 passed` instead of looking like a pass.
 * A file that failed to load counts as one failure, and so does an error outside any test.
 */
import type { Reporter, TestModule } from 'vitest/node';

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export function summaryLine({ passed, failed, skipped }: RunCounts): string {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

export function countsOf(modules: ReadonlyArray<TestModule>, unhandledErrors: number): RunCounts {
  const counts: RunCounts = { passed: 0, failed: unhandledErrors, skipped: 0 };
  for (const module of modules) {
    if (module.errors().length > 0) counts.failed += 1;
    for (const test of module.children.allTests()) {
      const { state } = test.result();
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') counts.failed += 1;
      else counts.skipped += 1;
    }
  }
  return counts;
}

export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`${summaryLine(countsOf(modules, unhandledErrors.length))}\n`);
  }
}
