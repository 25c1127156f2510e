/**
 * The JS SDK (sdk/js) runs every conformance case of sdk/conformance: the requests it sends, in
 * order, and what the app sees at each step.
 */
import { describe, it } from 'vitest';
import { loadCases } from '../fixtures/conformance.ts';
import { runCase } from '../fixtures/sdk-js-harness.ts';

const cases = loadCases();

describe.each([...new Set(cases.map((kase) => kase.file))])('%s', (file) => {
  it.each(cases.filter((kase) => kase.file === file).map((kase) => [kase.name, kase] as const))(
    '%s',
    async (_, kase) => {
      await runCase(kase);
    },
  );
});
