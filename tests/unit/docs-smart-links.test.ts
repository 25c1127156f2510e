/**
 * docs/smart-links.md#variables is the code's table (worker/rules/variables.ts `variablesTable`): a
 * variable added, renamed or retyped in one place fails here until the other follows; and every
 * variable the table names is one a rule compiles with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../worker/rules/compile.ts';
import { VARIABLES, variablesTable } from '../../worker/rules/variables.ts';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'smart-links.md'), 'utf8');
const MARK = '<!-- variables-table: rendered from worker/rules/variables.ts -->\n';

describe('the variables table', () => {
  it('in docs/smart-links.md is the one worker/rules/variables.ts renders', () => {
    const start = doc.indexOf(MARK);
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + MARK.length).split('\n\n')[0]).toBe(variablesTable());
  });

  it('names variables a condition compiles with, each with its example', () => {
    for (const { name, example } of VARIABLES) {
      const compiled = compileRules([{ when: `${name} == ${example}`, action: 'page' }], []);
      expect(compiled.ok ? [...compiled.compiled.reads] : compiled.errors).toEqual([name]);
    }
  });
});
