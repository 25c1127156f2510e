/**
 * A link's rule written on one line, `when => action` (docs/smart-links.md): the syntax of `npm run
 * link -- --rule` and of the links room's rules editor. The action is `store`, `page [variant]`,
 * `url <https URL>` or `deep-link </path>`; the condition is everything before the last `=>` (CEL has
 * no `=>`). Only the shape is read here: the worker checks and compiles the rule.
 */
import type { LinkRule } from './link-rules.ts';

/** The rule `text` spells, or why it spells none. */
export function ruleLine(text: string): { ok: true; rule: LinkRule } | { ok: false; reason: string } {
  const arrow = text.lastIndexOf('=>');
  const when = text.slice(0, Math.max(0, arrow)).trim();
  const [action = '', argument, ...more] = text
    .slice(arrow + 2)
    .trim()
    .split(/\s+/);
  if (arrow < 0 || !when) return { ok: false, reason: `expected 'condition => action', got ${JSON.stringify(text)}` };
  if (more.length > 0) return { ok: false, reason: `one argument after ${action}, got ${more.length + 1}` };
  switch (action) {
    case 'store':
      return argument === undefined
        ? { ok: true, rule: { when, action } }
        : { ok: false, reason: 'store takes no argument' };
    case 'page':
      return { ok: true, rule: argument === undefined ? { when, action } : { when, action, variant: argument } };
    case 'url':
      return argument
        ? { ok: true, rule: { when, action, url: argument } }
        : { ok: false, reason: 'url needs its https URL' };
    case 'deep-link':
      return argument
        ? { ok: true, rule: { when, action, path: argument } }
        : { ok: false, reason: 'deep-link needs its /path' };
    default:
      return {
        ok: false,
        reason: `the action is store, page [variant], url <URL> or deep-link </path>, not ${JSON.stringify(action)}`,
      };
  }
}

/** `rule` written as one line, as ruleLine reads it back. */
export function lineOfRule(rule: LinkRule): string {
  switch (rule.action) {
    case 'store':
      return `${rule.when} => store`;
    case 'page':
      return rule.variant ? `${rule.when} => page ${rule.variant}` : `${rule.when} => page`;
    case 'url':
      return `${rule.when} => url ${rule.url}`;
    case 'deep-link':
      return `${rule.when} => deep-link ${rule.path}`;
  }
}

/**
 * The rules of `text`, one per non-blank line, or the first line that spells none with its number
 * (from 1).
 */
export function ruleLines(text: string): { ok: true; rules: LinkRule[] } | { ok: false; line: number; reason: string } {
  const rules: LinkRule[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const parsed = ruleLine(line);
    if (!parsed.ok) return { ok: false, line: index + 1, reason: parsed.reason };
    rules.push(parsed.rule);
  }
  return { ok: true, rules };
}
