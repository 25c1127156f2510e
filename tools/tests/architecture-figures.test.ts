/**
 * docs/generated/architecture.md is what `npm run architecture` computes from the code now, so the
 * figures docs/architecture.md links cannot drift (regenerate with `npm run architecture`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureFigures, FIGURES_PAGE, ROOT } from '../architecture.ts';

describe('the generated architecture figures', () => {
  it('are what the tool computes from the code now (run `npm run architecture` and commit the page)', () => {
    const committed = readFileSync(join(ROOT, FIGURES_PAGE), 'utf8');
    expect(committed).toBe(architectureFigures(ROOT).text);
  });

  it('name a cycle and fail on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lander-figures-'));
    try {
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'shared/a.ts'), "import { b } from './b.ts';\nexport const a = b;\n");
      writeFileSync(join(dir, 'shared/b.ts'), "import { a } from './a.ts';\nexport const b = a;\n");
      const { text, failed } = architectureFigures(dir);
      expect(failed).toBe(true);
      expect(text).toContain('Import cycles: 1\n\n- shared/a.ts → shared/b.ts → shared/a.ts');
      expect(text).toContain('| shared | 2 | 4 | shared/a.ts (2) |');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name a wing importing another and the folder cycle it closes, and fail on them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lander-figures-'));
    try {
      mkdirSync(join(dir, 'worker/funnel'), { recursive: true });
      mkdirSync(join(dir, 'worker/webhooks'), { recursive: true });
      writeFileSync(
        join(dir, 'worker/funnel/count.ts'),
        "import { s } from '../webhooks/send.ts';\nexport const c = s;\n",
      );
      writeFileSync(join(dir, 'worker/webhooks/send.ts'), 'export const s = 1;\n');
      writeFileSync(
        join(dir, 'worker/webhooks/hooks.ts'),
        "import { c } from '../funnel/count.ts';\nexport const h = c;\n",
      );
      const { text, failed } = architectureFigures(dir);
      expect(failed).toBe(true);
      expect(text).toContain('Folder cycles inside worker/: 1\n\n- worker/funnel/ ⇄ worker/webhooks/');
      expect(text).toContain('Pairs of wings importing each other: 1\n\n- funnel ⇄ webhooks');
      expect(text).toContain('Arrows from a wing into another wing, not declared: 2\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
