/**
 * Running a link's compiled rules for one request (docs/smart-links.md#evaluating): in order, the
 * first whose condition is `true` decides; none, the page. It never throws: a condition that fails
 * (a missing query parameter read without `has`, a bad time zone) or a URL whose host has since left
 * the allow list falls through to the next rule and is reported, for the caller to count in
 * `/api/losses`. A bot or link previewer never leaves the page: it gets the page's metadata.
 */
import type { Verdict } from '../../shared/device/verdict.ts';
import { type Action, THE_PAGE } from '../../shared/link-rules.ts';
import { type CompiledRules, hostAllowed } from './compile.ts';
import type { RuleInput } from './variables.ts';

/** A rule that failed on this request: its place and why. */
export interface RuleFailure {
  index: number;
  error: string;
}

/** What the rules decided for a request: the action, the rule that chose it (null: none held) and what failed. */
export interface Decision {
  action: Action;
  rule: number | null;
  failures: RuleFailure[];
}

const NO_FAILURES: RuleFailure[] = [];

/** The host of an https URL, or null. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** What `compiled` decides for `input`, the URL actions held to today's `allowedHosts`. Never throws. */
export function evaluateRules(compiled: CompiledRules, input: RuleInput, allowedHosts: readonly string[]): Decision {
  let failures = NO_FAILURES;
  const fail = (index: number, error: string): void => {
    if (failures === NO_FAILURES) failures = [];
    failures.push({ index, error });
  };
  rules: for (const { index, test, guards, action } of compiled.rules) {
    for (const guard of guards) if (!guard(input)) continue rules;
    let holds: unknown;
    try {
      holds = test(input);
    } catch (error) {
      fail(index, error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error));
      continue;
    }
    if (holds !== true) {
      if (holds !== false) fail(index, 'the condition was not true or false');
      continue;
    }
    if (action.action === 'url') {
      const host = hostOf(action.url);
      if (host === null || !hostAllowed(host, allowedHosts)) {
        fail(index, `the host of ${action.url} is not on links.allowed_hosts`);
        continue;
      }
    }
    return { action, rule: index, failures };
  }
  return { action: THE_PAGE, rule: null, failures };
}

/**
 * What the rules decide for a visitor with `verdict`: a person gets `evaluateRules`'s action; a bot
 * or previewer gets the page (its metadata) whatever a rule says, a variant included, never a
 * redirect to the store, another site or the app.
 */
export function decideFor(
  compiled: CompiledRules,
  input: RuleInput,
  verdict: Pick<Verdict, 'bot'>,
  allowedHosts: readonly string[],
): Decision {
  const decision = evaluateRules(compiled, input, allowedHosts);
  if (!verdict.bot || decision.action.action === 'page') return decision;
  return { action: THE_PAGE, rule: null, failures: decision.failures };
}
