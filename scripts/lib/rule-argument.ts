/**
 * `npm run link -- --short --rule 'when => action'` (docs/smart-links.md): one rule written on the
 * command line. The action is `store`, `page [variant]`, `url <https URL>` or `deep-link </path>`; the
 * condition is everything before the last `=>` (CEL has no `=>`). The worker checks and compiles it.
 */
import type { LinkRule } from '../../shared/link-rules.ts';

/** The rule `text` spells, or why it spells none. */
export function ruleArgument(text: string): { ok: true; rule: LinkRule } | { ok: false; reason: string } {
  const arrow = text.lastIndexOf('=>');
  const when = text.slice(0, Math.max(0, arrow)).trim();
  const [action = '', argument, ...more] = text
    .slice(arrow + 2)
    .trim()
    .split(/\s+/);
  if (arrow < 0 || !when)
    return { ok: false, reason: `--rule: expected 'condition => action', got ${JSON.stringify(text)}` };
  if (more.length > 0) return { ok: false, reason: `--rule: one argument after ${action}, got ${more.length + 1}` };
  switch (action) {
    case 'store':
      return argument === undefined
        ? { ok: true, rule: { when, action } }
        : { ok: false, reason: '--rule: store takes no argument' };
    case 'page':
      return { ok: true, rule: argument === undefined ? { when, action } : { when, action, variant: argument } };
    case 'url':
      return argument
        ? { ok: true, rule: { when, action, url: argument } }
        : { ok: false, reason: '--rule: url needs its https URL' };
    case 'deep-link':
      return argument
        ? { ok: true, rule: { when, action, path: argument } }
        : { ok: false, reason: '--rule: deep-link needs its /path' };
    default:
      return {
        ok: false,
        reason: `--rule: the action is store, page [variant], url <URL> or deep-link </path>, not ${JSON.stringify(action)}`,
      };
  }
}
