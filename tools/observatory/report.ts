/**
 * Turns an MDN HTTP Observatory result into the lines `npm run observatory` prints: the grade and
 * score, every test with its outcome and score change, and for each failing test why it failed.
 */
import type { ObservatoryResult, ObservatoryTest } from '@mdn/mdn-http-observatory';

/** The grade the security headers must reach (docs/security.md). */
export const REQUIRED_GRADE = 'A+';

/** The scanner's descriptions are HTML fragments; the terminal wants one line of text. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A test fails when the scanner says so or when it costs points. */
export function isFailing(test: ObservatoryTest): boolean {
  return test.pass === false || test.scoreModifier < 0;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** The report of one scanned page. */
export function formatReport(label: string, result: ObservatoryResult): string[] {
  const { scan, tests } = result;
  const lines = [
    `${label}: grade ${scan.grade}, score ${scan.score} (${scan.testsPassed} of ${scan.testsQuantity} tests passed, HTTP ${scan.statusCode})`,
  ];
  const entries = Object.entries(tests).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, test] of entries) {
    const mark = isFailing(test) ? 'FAIL' : 'pass';
    lines.push(`  ${mark}  ${name.padEnd(30)} ${String(test.result).padEnd(62)} ${signed(test.scoreModifier)}`);
  }
  const failing = entries.filter(([, test]) => isFailing(test));
  for (const [name, test] of failing) {
    lines.push(`  ${name} failed: ${plainText(test.scoreDescription ?? String(test.result))}`);
  }
  if (failing.length === 0) lines.push('  No failing tests.');
  return lines;
}

/** True when every scanned page has the required grade. */
export function meetsGrade(results: readonly ObservatoryResult[]): boolean {
  return results.length > 0 && results.every((result) => result.scan.grade === REQUIRED_GRADE);
}
