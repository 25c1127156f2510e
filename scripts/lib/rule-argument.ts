/**
 * `npm run link -- --short --rule 'when => action'` (docs/smart-links.md): one rule written on the
 * command line, read by shared/rule-line.ts (the links room's rules editor reads the same syntax).
 * The worker checks and compiles it.
 */
import type { LinkRule } from '../../shared/link-rules.ts';
import { ruleLine } from '../../shared/rule-line.ts';

/** The rule `text` spells, or why it spells none, naming the option. */
export function ruleArgument(text: string): { ok: true; rule: LinkRule } | { ok: false; reason: string } {
  const parsed = ruleLine(text);
  return parsed.ok ? parsed : { ok: false, reason: `--rule: ${parsed.reason}` };
}
