/**
 * The JS SDK (sdk/js) runs every conformance case of sdk/conformance: the requests it sends, in
 * order, and what the app sees at each step.
 */
import { describe, it } from 'vitest';
import { loadCases } from '../fixtures/conformance.ts';
import { runCase } from '../fixtures/sdk-js-harness.ts';

// A case for other SDKs only (`sdks`) reads what the JS SDK has no reader for: the makers' stores.
const cases = loadCases().filter((kase) => !kase.sdks || kase.sdks.includes('js'));

describe.each([...new Set(cases.map((kase) => kase.file))])('%s', (file) => {
  it.each(cases.filter((kase) => kase.file === file).map((kase) => [kase.name, kase] as const))(
    '%s',
    async (_, kase) => {
      await runCase(kase);
    },
  );
});
